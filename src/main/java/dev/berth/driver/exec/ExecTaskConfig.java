package dev.berth.driver.exec;

import java.util.List;
import java.util.Map;

import dev.berth.driver.ConfigSchema;
import dev.berth.driver.ConfigSchema.Type;
import dev.berth.driver.TaskConfigValidationException;
import dev.berth.driver.rawexec.RawExecTaskConfig;

/**
 * The exec driver's task config: raw_exec's keys plus a per-task pids limit and Nomad's {@code cpu_hard_limit} /
 * {@code cpu_cfs_period}: with the hard limit the task's {@code cpu} (MHz) becomes a CFS quota (v1
 * {@code cpu.cfs_quota_us}, v2 {@code cpu.max}) instead of only a weight.
 *
 * @param command   the program (required), looked up like raw_exec does
 * @param args      its arguments
 * @param workDir   working directory (the task dir when empty)
 * @param pidsLimit     most processes/threads the task may have; 0 = the driver's default
 * @param cpuHardLimit  whether the task's {@code cpu} is a hard ceiling (a CFS quota), not only a weight
 * @param cfsPeriodUs   the CFS period of that quota in microseconds (Nomad's default 100000; 1000–1000000)
 * @param swapMb        Berth's {@code swap_mb}: the task's swap budget in MiB, where the node allows swap; -1 when not
 *                      set (the budget is then proportional to the task's memory)
 */
public record ExecTaskConfig(String command, List<String> args, String workDir, long pidsLimit, boolean cpuHardLimit,
        long cfsPeriodUs, long swapMb) {

    /** The largest {@code swap_mb}: 64 TiB, the bound of every other size a task sets. */
    static final long MAX_SWAP_MB = 64L << 20;

    /** Nomad's default {@code cpu_cfs_period}. */
    static final long DEFAULT_CFS_PERIOD_US = 100_000;

    static final ConfigSchema SCHEMA = RawExecTaskConfig.schema()
            .optional("pids_limit", Type.NUMBER)
            .optional("cpu_hard_limit", Type.BOOL)
            .optional("cpu_cfs_period", Type.NUMBER)
            .optional("swap_mb", Type.NUMBER)
            .build();

    public ExecTaskConfig {
        args = args == null ? List.of() : List.copyOf(args);
        workDir = workDir == null ? "" : workDir;
    }

    public static ExecTaskConfig parse(Map<String, Object> config) throws TaskConfigValidationException {
        ConfigSchema.Validated v = SCHEMA.validate(config);
        RawExecTaskConfig base = RawExecTaskConfig.from(v);
        long pids = v.number("pids_limit", 0);
        if (pids < 0) {
            throw new TaskConfigValidationException("pids_limit", "Invalid value for attribute \"pids_limit\": must not be negative");
        }
        long period = v.number("cpu_cfs_period", DEFAULT_CFS_PERIOD_US);
        if (period < 1_000 || period > 1_000_000) { // the kernel's range for cpu.cfs_period_us and cpu.max's period
            throw new TaskConfigValidationException("cpu_cfs_period",
                    "Invalid value for attribute \"cpu_cfs_period\": must be between 1000 and 1000000 microseconds");
        }
        long swapMb = v.number("swap_mb", -1);
        if (config.containsKey("swap_mb") && (swapMb < 0 || swapMb > MAX_SWAP_MB)) {
            throw new TaskConfigValidationException("swap_mb",
                    "Invalid value for attribute \"swap_mb\": must be between 0 and " + MAX_SWAP_MB + " (MiB)");
        }
        return new ExecTaskConfig(base.command(), base.args(), base.workDir(), pids, v.bool("cpu_hard_limit", false), period, swapMb);
    }
}
