package dev.berth.driver.exec;

import java.util.List;
import java.util.Map;

import dev.berth.driver.ConfigSchema;
import dev.berth.driver.ConfigSchema.Type;
import dev.berth.driver.TaskConfigValidationException;
import dev.berth.driver.rawexec.RawExecTaskConfig;

/**
 * The exec driver's task config: raw_exec's keys plus a per-task pids limit.
 *
 * @param command   the program (required), looked up like raw_exec does
 * @param args      its arguments
 * @param workDir   working directory (the task dir when empty)
 * @param pidsLimit most processes/threads the task may have; 0 = the driver's default
 */
public record ExecTaskConfig(String command, List<String> args, String workDir, long pidsLimit) {

    static final ConfigSchema SCHEMA = RawExecTaskConfig.schema()
            .optional("pids_limit", Type.NUMBER)
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
        return new ExecTaskConfig(base.command(), base.args(), base.workDir(), pids);
    }
}
