package dev.berth.driver.exec;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.driver.DriverException;
import dev.berth.driver.DriverFingerprint;
import dev.berth.driver.ExitResult;
import dev.berth.driver.HealthState;
import dev.berth.driver.ResizeResult;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskConfigValidationException;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.TaskHandles;
import dev.berth.driver.hostexec.HostExecDriver;
import dev.berth.driver.rawexec.BinaryLookup;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.driver.rawexec.RawExecTaskConfig;
import dev.berth.host.cgroup.CgroupLimits;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.CgroupResize;
import dev.berth.host.cgroup.CgroupSetup;
import dev.berth.host.cgroup.CgroupUnavailableException;
import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.host.cgroup.TaskCgroup;
import dev.berth.host.cgroup.OomKills;
import dev.berth.host.cgroup.SwapBudget;

/**
 * Nomad's {@code exec}: raw_exec plus a cgroup per task that enforces the task's memory ({@code MemoryMB} /
 * {@code MemoryMaxMB}), CPU shares ({@code CPU}; v2 weight) and a pids limit. The process lifecycle (own session,
 * signals to the group, exit status surviving the agent, recover) is raw_exec's; this driver wraps the task's
 * program so it enters its cgroup <em>before</em> it execs, so every process of the task is born inside. raw_exec's
 * launch shim, which records the exit status, deliberately stays outside: inside, the task's memory limit would make it
 * an OOM-kill candidate whenever the task runs out (the kernel may kill more than one process of a cgroup), and a killed
 * shim loses the exit status. An OOM kill counted by the cgroup during the run is reported as
 * {@link ExitResult#oomKilled()}. Destroy removes the cgroup. The task's bind mounts (its host volumes, a device
 * reservation's mounts) are made in a mount namespace of its own ({@link ExecMounts}).
 *
 * <p>Healthy only when task cgroups can be made with the memory, cpu and pids controllers ({@link CgroupManager#setup()});
 * otherwise unhealthy with the step that failed, so no work is admitted that would fail at start.
 *
 * <p>driverState: raw_exec's keys, with {@code cgroup} = the cgroup's name (relative to each hierarchy root),
 * {@code cgroup_version} and {@code oom_kill_base} (the cgroup's OOM count at start).
 */
public class ExecDriver implements HostExecDriver, AutoCloseable {

    public static final String NAME = "exec";
    static final String STATE_CGROUP = "cgroup";
    static final String STATE_CGROUP_VERSION = TaskHandles.CGROUP_VERSION;
    static final String STATE_OOM_BASE = "oom_kill_base";
    static final List<String> REQUIRED_CONTROLLERS = List.of("memory", "cpu", "pids");

    /**
     * Runs as {@code sh -c ENTER berth-exec <n> <procs file>… <keep PWD 0|1> <program> <args>…}: writes its own pid
     * into every hierarchy's {@code cgroup.procs}, then execs the program, so nothing of the task runs outside.
     */
    static final String ENTER = "n=$1; shift; while [ \"$n\" -gt 0 ]; do echo $$ > \"$1\" || exit 125; shift; n=$((n-1)); done; "
            + "[ \"$1\" = 1 ] || unset PWD; shift; exec \"$@\"";

    private static final Logger log = LoggerFactory.getLogger(ExecDriver.class);

    private final boolean enabled;
    private final RawExecDriver processes;
    private final CgroupManager cgroups;
    private final long defaultPidsLimit;
    private final double mhzPerCore;
    private final SwapBudget swap;

    /**
     * @param processes        a raw_exec instance (enabled, not registered as a driver of its own) that runs the processes
     * @param defaultPidsLimit pids limit for tasks that set none (0 = unlimited)
     * @param mhzPerCore       the host's MHz per core (the node's compute ÷ cores), to turn {@code cpu_hard_limit}'s MHz
     *                         into a CFS quota
     * @param swap             the node's swap policy: {@link SwapBudget#OFF} (Nomad's) or a proportional budget per task
     */
    public ExecDriver(boolean enabled, RawExecDriver processes, CgroupManager cgroups, long defaultPidsLimit, double mhzPerCore,
            SwapBudget swap) {
        this.enabled = enabled;
        this.processes = processes;
        this.cgroups = cgroups;
        this.defaultPidsLimit = defaultPidsLimit;
        this.mhzPerCore = mhzPerCore;
        this.swap = Objects.requireNonNull(swap, "'swap' must not be null");
    }

    /** A driver whose tasks never swap (Nomad's). */
    public ExecDriver(boolean enabled, RawExecDriver processes, CgroupManager cgroups, long defaultPidsLimit, double mhzPerCore) {
        this(enabled, processes, cgroups, defaultPidsLimit, mhzPerCore, SwapBudget.OFF);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Duration fingerprintPeriod() {
        return Duration.ofSeconds(30);
    }

    @Override
    public DriverFingerprint fingerprint() {
        if (!enabled) {
            return DriverFingerprint.disabled();
        }
        DriverFingerprint base = processes.fingerprint();
        if (base.health() != HealthState.HEALTHY) {
            return new DriverFingerprint(base.health(), base.description(), Map.of());
        }
        return switch (cgroups.setup()) {
            case CgroupSetup.Unavailable(String reason) ->
                    new DriverFingerprint(HealthState.UNHEALTHY, "exec cannot enforce task resources: " + reason, Map.of());
            case CgroupSetup.Ready ready when !ready.controllers().containsAll(REQUIRED_CONTROLLERS) ->
                    new DriverFingerprint(HealthState.UNHEALTHY, "exec cannot enforce task resources: task cgroups get only "
                            + ready.controllers() + ", exec needs " + REQUIRED_CONTROLLERS, Map.of());
            case CgroupSetup.Ready ready -> DriverFingerprint.healthy(Map.of("driver.exec", "true",
                    "driver.exec.cgroup_version", cgroups.version() == CgroupVersion.V2 ? "2" : "1"));
        };
    }

    @Override
    public void validate(Map<String, Object> config) throws TaskConfigValidationException {
        ExecTaskConfig parsed = ExecTaskConfig.parse(config);
        if (parsed.swapMb() > 0 && !swap.allowed()) {
            throw new TaskConfigValidationException("swap_mb", "Invalid value for attribute \"swap_mb\": swap is off on this node"
                    + " (berth.drivers.exec.swap=none); only 0 is allowed");
        }
    }

    @Override
    public TaskHandle start(TaskConfig task) throws DriverException {
        if (!enabled) {
            throw new DriverException("exec is disabled", false);
        }
        ExecTaskConfig config;
        try {
            config = ExecTaskConfig.parse(task.config());
        } catch (TaskConfigValidationException e) {
            throw new DriverException("failed to decode driver config: " + e.getMessage(), false, e);
        }
        Path program = BinaryLookup.require(config.command(), task);
        CgroupLimits limits = limits(task, config);
        long pids = limits.pidsMax();
        TaskCgroup cgroup;
        try {
            cgroup = cgroups.make(task.allocId(), task.taskName(), limits, task.reservedCores());
        } catch (CgroupUnavailableException e) {
            throw new DriverException("cannot create a cgroup for task " + task.id() + ": " + e.getMessage(), false, e);
        }
        long oomBase = OomKills.count(cgroup);

        List<String> args = new ArrayList<>(List.of("-c", ENTER, "berth-exec"));
        LinkedHashSet<Path> dirs = new LinkedHashSet<>(cgroup.dirs().values());
        args.add(Integer.toString(dirs.size()));
        dirs.forEach(dir -> args.add(dir.resolve("cgroup.procs").toString()));
        args.add(task.env().containsKey("PWD") ? "1" : "0");
        List<String> command = new ArrayList<>();
        command.add(program.toString());
        command.addAll(config.args());
        try {
            args.addAll(ExecMounts.wrap(ExecMounts.of(task.devices()), command));
        } catch (DriverException e) {
            removeQuietly(cgroup);
            throw e;
        }
        TaskHandle started;
        try {
            // the wrapper enters the task's cgroup, already on the task's cores
            started = processes.start(task.withoutReservedCores(), new RawExecTaskConfig("/bin/sh", args, config.workDir()));
        } catch (DriverException e) {
            removeQuietly(cgroup);
            throw e;
        }
        Map<String, String> state = new LinkedHashMap<>(started.driverState());
        state.put(STATE_CGROUP, cgroup.name());
        state.put(STATE_CGROUP_VERSION, cgroup.version() == CgroupVersion.V2 ? "2" : "1");
        state.put(STATE_OOM_BASE, Long.toString(oomBase));
        log.info("started exec task {} in cgroup {} (memory {} B, swap {} B, shares {}, cpu quota {}/{} us, pids {})", task.id(),
                cgroup.name(), limits.hardMemoryLimit(), limits.swapBytes(), limits.cpuShares(), limits.cpuQuotaUs(), limits.cpuPeriodUs(), pids);
        return new TaskHandle(NAME, started.taskId(), started.startedAt(), state);
    }

    /** The cgroup limits of a task: its memory, memory_max, CPU shares and swap budget, pids and CPU ceiling from its config. */
    private CgroupLimits limits(TaskConfig task, ExecTaskConfig config) {
        long pids = config.pidsLimit() > 0 ? config.pidsLimit() : defaultPidsLimit;
        long quota = config.cpuHardLimit() && task.cpuMhz() > 0 ? CgroupLimits.cpuQuotaUs(task.cpuMhz(), mhzPerCore, config.cfsPeriodUs()) : 0;
        long memory = task.memoryMb() * 1024L * 1024L;
        long swapBytes = swap.forTask(memory, config.swapMb() < 0 ? -1 : config.swapMb() * 1024L * 1024L);
        return new CgroupLimits(memory, task.memoryMaxMb() * 1024L * 1024L, task.cpuMhz(), pids,
                quota, quota > 0 ? config.cfsPeriodUs() : 0, swapBytes);
    }

    /**
     * Writes the task's new limits into its cgroup ({@link CgroupResize}): the same limits a start with the new size would
     * write. Refused when the cgroup is gone or the kernel would have to take memory the task uses.
     */
    @Override
    public ResizeResult resize(TaskHandle handle, TaskConfig task) throws DriverException {
        Optional<TaskCgroup> cgroup = cgroupOf(handle);
        if (cgroup.isEmpty()) {
            return new ResizeResult.Refused("the task's cgroup is gone");
        }
        CgroupLimits limits;
        try {
            limits = limits(task, ExecTaskConfig.parse(task.config()));
        } catch (TaskConfigValidationException e) {
            throw new DriverException("failed to decode driver config: " + e.getMessage(), false, e);
        }
        Optional<String> refused = CgroupResize.apply(cgroup.get(), limits);
        if (refused.isPresent()) {
            return new ResizeResult.Refused(refused.get());
        }
        log.info("resized exec task {} in cgroup {} (memory {} B, soft {} B, swap {} B, shares {}, cpu quota {}/{} us)", task.id(),
                cgroup.get().name(), limits.hardMemoryLimit(), limits.softMemoryLimit(), limits.swapBytes(), limits.cpuShares(),
                limits.cpuQuotaUs(), limits.cpuPeriodUs());
        return new ResizeResult.Applied("cgroup " + cgroup.get().name() + " rewritten");
    }

    @Override
    public CompletableFuture<ExitResult> waitTask(TaskHandle handle) {
        Optional<TaskCgroup> cgroup = cgroupOf(handle);
        long base = Long.parseLong(handle.driverState().getOrDefault(STATE_OOM_BASE, "0"));
        return processes.waitTask(handle).thenApply(exit -> {
            boolean oom = exit.oomKilled() || cgroup.map(c -> OomKills.count(c) > base).orElse(false);
            return oom == exit.oomKilled() ? exit : new ExitResult(exit.exitCode(), exit.signal(), true, exit.err());
        });
    }

    @Override
    public void stop(TaskHandle handle, Duration timeout, String signal) throws DriverException {
        // raw_exec's default is SIGINT (Nomad's executor); signal, grace, SIGKILL to the process group
        processes.stop(handle, timeout, signal);
        // anything that left the process group (setsid'd daemons) is still in the cgroup
        cgroupOf(handle).ifPresent(TaskCgroup::killAll);
    }

    @Override
    public void signal(TaskHandle handle, String signal) throws DriverException {
        processes.signal(handle, signal);
    }

    @Override
    public void destroy(TaskHandle handle, boolean force) throws DriverException {
        processes.destroy(handle, force);
        Optional<TaskCgroup> cgroup = cgroupOf(handle);
        if (cgroup.isPresent()) {
            try {
                cgroup.get().remove();
            } catch (IOException e) {
                throw new DriverException("failed to remove cgroup " + cgroup.get().name() + ": " + e.getMessage(), true, e);
            }
        }
    }

    @Override
    public TaskHandle recover(TaskHandle handle) throws DriverException {
        TaskHandle recovered = processes.recover(handle);
        Map<String, String> state = new LinkedHashMap<>(recovered.driverState());
        handle.driverState().forEach(state::putIfAbsent);
        return new TaskHandle(NAME, recovered.taskId(), recovered.startedAt(), state);
    }

    /**
     * Exec tasks run under raw_exec's launch shim with exit files in this driver's own directory, so the shim scan finds
     * exactly this agent's exec tasks (crash reconciliation at start-up). Their cgroup is not known from {@code /proc} alone; a
     * killed orphan leaves an empty cgroup directory behind.
     */
    @Override
    public java.util.List<TaskHandle> liveTasks() {
        return processes.liveTasks().stream().map(h -> new TaskHandle(NAME, h.taskId(), h.startedAt(), h.driverState())).toList();
    }

    /** The task's cgroup, for the stats collector ({@link TaskCgroup#dirs()}) and exec; empty once it was removed. */
    @Override
    public Optional<TaskCgroup> cgroupOf(TaskHandle handle) {
        return cgroups.find(handle.driverState().get(STATE_CGROUP));
    }

    @Override
    public void close() {
        processes.close();
    }

    private static void removeQuietly(TaskCgroup cgroup) {
        try {
            cgroup.remove();
        } catch (IOException e) {
            log.warn("could not remove cgroup {} of a task that failed to start: {}", cgroup.name(), e.toString());
        }
    }
}
