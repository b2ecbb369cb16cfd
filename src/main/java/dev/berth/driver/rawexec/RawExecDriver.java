package dev.berth.driver.rawexec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.driver.DriverException;
import dev.berth.driver.DriverFingerprint;
import dev.berth.driver.DriverSignals;
import dev.berth.driver.ExitResult;
import dev.berth.driver.ProcessSignals;
import dev.berth.driver.ResizeResult;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskConfigValidationException;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.TaskHandles;
import dev.berth.driver.TaskNotFoundException;
import dev.berth.driver.hostexec.HostExecDriver;
import dev.berth.host.ProcStat;
import dev.berth.host.Signals;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.CgroupSetup;
import dev.berth.host.cgroup.TaskCgroup;
import dev.berth.host.cgroup.OomKills;

/**
 * Nomad's {@code raw_exec}: runs the task's program as a host process, without isolation, in its own session and
 * process group (see {@link ExitShim} for the launch line and how the exit status survives an agent restart).
 *
 * <p>State keys: {@code pid} (session leader), {@code pgid}, {@code start_ticks}, {@code cgroup} (the task cgroup's
 * {@link TaskCgroup#name()}, empty without cgroups) and {@code exit_file}. raw_exec puts each task in its own cgroup
 * without limits (Nomad's raw_exec is not isolated); the cgroup gives exact stats and a kill that catches every
 * descendant. When the task exits, whatever it left running in its cgroup is killed and the cgroup removed first. {@code alloc exec} runs in that cgroup too ({@link HostExecDriver}).
 */
public class RawExecDriver implements HostExecDriver, AutoCloseable {

    public static final String NAME = "raw_exec";
    /** After SIGKILL, how long stop/destroy wait for the process to go (Nomad's executor: 15 s). */
    static final Duration KILL_WAIT = Duration.ofSeconds(15);

    private static final Logger log = LoggerFactory.getLogger(RawExecDriver.class);

    private final boolean enabled;
    private final Clock clock;
    private final Path exitDir;
    /** Watches recovered (non-child) tasks until they exit. */
    private final RecoveredExits recovered;
    private final TaskOutputs outputs;
    private final LaunchTools tools;
    /** posix_spawn + pidfd launcher (no JDK reaper thread per task); null where unavailable or when disabled. */
    private final SpawnedChildren spawner;
    private final Map<String, RawTask> tasks = new ConcurrentHashMap<>();
    private final CgroupManager cgroups;

    public RawExecDriver(boolean enabled, Clock clock, Path exitDir, ScheduledExecutorService poller,
            Duration pollInterval, TaskOutputs outputs) {
        this(enabled, clock, exitDir, poller, pollInterval, outputs, null, true);
    }

    /**
     * @param exitDir      where the per-task exit-status files live (must survive agent restarts)
     * @param poller       watches recovered (non-child) tasks for their exit
     * @param pollInterval how often a recovered task's pid is checked
     * @param cgroups      makes a cgroup per task; null runs tasks without one (stats then come from the process tree)
     * @param posixSpawn   start tasks with posix_spawn where the platform allows; false always uses {@code ProcessBuilder}
     */
    public RawExecDriver(boolean enabled, Clock clock, Path exitDir, ScheduledExecutorService poller,
            Duration pollInterval, TaskOutputs outputs, CgroupManager cgroups, boolean posixSpawn) {
        this.cgroups = cgroups;
        this.enabled = enabled;
        this.clock = Objects.requireNonNull(clock, "'clock' must not be null");
        // Absolute: the exit shim writes the file from the task's working directory, not the agent's.
        this.exitDir = Objects.requireNonNull(exitDir, "'exitDir' must not be null").toAbsolutePath();
        this.recovered = new RecoveredExits(Objects.requireNonNull(poller, "'poller' must not be null"),
                Objects.requireNonNull(pollInterval, "'pollInterval' must not be null"), cgroups);
        this.outputs = Objects.requireNonNull(outputs, "'outputs' must not be null");
        this.tools = LaunchTools.detect();
        this.spawner = enabled && posixSpawn ? SpawnedChildren.createOrNull() : null;
    }

    @Override
    public String name() {
        return NAME;
    }

    boolean usesPosixSpawn() { // else ProcessBuilder
        return spawner != null;
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
        if (tools.setsid() == null) {
            return new DriverFingerprint(dev.berth.driver.HealthState.UNHEALTHY, "setsid not found", Map.of());
        }
        if (cgroups == null) {
            return DriverFingerprint.healthy(Map.of("driver.raw_exec", "true"));
        }
        // raw_exec promises no isolation (as Nomad's): without cgroups it still runs tasks, and says what they lack.
        return switch (cgroups.setup()) {
            case CgroupSetup.Ready ready -> DriverFingerprint.healthy(Map.of("driver.raw_exec", "true", "driver.raw_exec.cgroups", "true"));
            case CgroupSetup.Unavailable(String reason) -> new DriverFingerprint(dev.berth.driver.HealthState.HEALTHY,
                    "Healthy; tasks run without a cgroup (stats from their process tree, no pressure or OOM figures): " + reason,
                    Map.of("driver.raw_exec", "true", "driver.raw_exec.cgroups", "false"));
        };
    }

    @Override
    public void validate(Map<String, Object> config) throws TaskConfigValidationException {
        RawExecTaskConfig.parse(config);
    }

    @Override
    public TaskHandle start(TaskConfig task) throws DriverException {
        checkUsable();
        RawExecTaskConfig cfg;
        try {
            cfg = RawExecTaskConfig.parse(task.config());
        } catch (TaskConfigValidationException ex) {
            throw new DriverException("failed to decode driver config: " + ex.getMessage(), false, ex);
        }
        return launch(task, cfg);
    }

    /** Starts {@code task} with typed settings instead of its user config (the exec driver's wrapper command). */
    public TaskHandle start(TaskConfig task, RawExecTaskConfig cfg) throws DriverException {
        checkUsable();
        return launch(task, cfg);
    }

    private void checkUsable() throws DriverException {
        if (!enabled) {
            throw new DriverException("raw_exec is disabled", false);
        }
        if (tools.setsid() == null) {
            throw new DriverException("raw_exec needs setsid (util-linux), which this host does not have", false);
        }
    }

    private TaskHandle launch(TaskConfig task, RawExecTaskConfig cfg) throws DriverException {
        RawTask previous = tasks.get(task.id());
        if (previous != null && !previous.exit.isDone()) {
            throw new DriverException("task with ID \"" + task.id() + "\" already started", false);
        }
        if (previous != null) {
            // A restart reuses the task id: the previous run's exit file is no longer needed.
            Cleanup.deleteQuietly(previous.exitFile);
        }
        Path program = BinaryLookup.require(cfg.command(), task);
        Path workDir = cfg.workDir().isEmpty() ? task.taskDir() : Path.of(cfg.workDir());

        Path exitFile = exitDir.resolve(task.id().replaceAll("[^A-Za-z0-9._-]", "_") + "-" + System.nanoTime() + ".exit");
        Optional<TaskCgroup> cgroup = RawExecCgroups.forTask(cgroups, task);
        List<Path> cgroupProcs = cgroup.map(c -> c.dirs().values().stream().distinct().map(d -> d.resolve("cgroup.procs")).toList())
                .orElse(List.of());
        CompletableFuture<Integer> exitValue = new CompletableFuture<>();
        int pid;
        try {
            TaskOutputs.Target out = outputs.stdout(task);
            TaskOutputs.Target err = outputs.stderr(task);
            List<String> command = ExitShim.command(tools.setsid(), tools.envDefaultSignal(), exitFile, fifoOf(out), fifoOf(err),
                    cgroupProcs, task.env().containsKey("PWD"), program, cfg.args());
            Files.createDirectories(exitDir);
            Files.deleteIfExists(exitFile);
            pid = spawner != null
                    ? spawner.spawn(command, task.env(), workDir, appendFileOf(out), appendFileOf(err), exitValue::complete)
                    : ProcessBuilderLaunch.start(command, task.env(), workDir, out, err, exitValue);
        } catch (IOException ex) {
            cgroup.ifPresent(Cleanup::removeQuietly);
            throw new DriverException("failed to launch command with executor: " + ex.getMessage(), true, ex);
        }
        // The start time does not change across the execs of setsid/env/sh, so reading it now is exact.
        long startTicks = ProcStat.read(pid).map(ProcStat::startTicks).orElse(-1L);
        Map<String, String> state = new LinkedHashMap<>();
        state.put(TaskHandles.PID, Integer.toString(pid));
        state.put("pgid", Integer.toString(pid));
        state.put(TaskHandles.START_TICKS, Long.toString(startTicks));
        state.put(TaskHandles.CGROUP, cgroup.map(TaskCgroup::name).orElse(""));
        state.put("exit_file", exitFile.toString());
        TaskHandle handle = new TaskHandle(NAME, task.id(), clock.instant(), state);
        RawTask running = new RawTask(handle, pid, pid, startTicks, exitFile);
        // The cgroup goes before the exit is reported, so a restart that re-creates it never races the removal.
        long oomBase = cgroup.map(OomKills::count).orElse(0L);
        exitValue.thenAcceptAsync(value -> {
            // read before the removal: an OOM kill (host-wide, raw_exec has no limit) is counted in the task's cgroup
            boolean oom = cgroup.map(c -> OomKills.count(c) > oomBase).orElse(false);
            cgroup.ifPresent(Cleanup::removeQuietly);
            ExitResult exit = value >= 0 ? ExitShim.toExitResult(value)
                    : ExitShim.read(exitFile).orElseGet(() -> new ExitResult(0, 0, false, "exit status of the task was lost"));
            running.exit.complete(oom ? new ExitResult(exit.exitCode(), exit.signal(), true, exit.err()) : exit);
        }, Cleanup::startThread);
        tasks.put(task.id(), running);
        log.info("started task {} pid={} program={}", task.id(), pid, program);
        return handle;
    }

    private static Path appendFileOf(TaskOutputs.Target target) {
        return target instanceof TaskOutputs.Target.AppendFile(Path path) ? path : null;
    }

    private static Path fifoOf(TaskOutputs.Target target) {
        return target instanceof TaskOutputs.Target.Fifo(Path path) ? path : null;
    }

    @Override
    public CompletableFuture<ExitResult> waitTask(TaskHandle handle) {
        RawTask task = tasks.get(handle.taskId());
        if (task == null) {
            return CompletableFuture.failedFuture(new TaskNotFoundException(handle.taskId()));
        }
        return task.exit.copy();
    }

    @Override
    public void stop(TaskHandle handle, Duration timeout, String signal) throws DriverException {
        RawTask task = require(handle);
        int sig = signal == null || signal.isBlank() ? Signals.SIGINT : DriverSignals.parse(signal);
        if (!task.exit.isDone()) {
            signalTask(task, sig);
            awaitExit(task, timeout);
        }
        if (!task.exit.isDone()) {
            log.info("task {} did not exit within {}; sending SIGKILL to process group {}", handle.taskId(), timeout, task.pgid);
            killGroup(task);
            if (!awaitExit(task, KILL_WAIT)) {
                throw new DriverException("process did not exit after 15 seconds", true);
            }
        } else {
            // The leader is gone; anything it left behind in its group goes with it (Nomad kills the process group).
            ProcessSignals.signalGroup(task.pgid, Signals.SIGKILL);
        }
        // ...and whatever left the group (setsid'd or daemonised descendants) goes with the cgroup.
        cgroupOf(handle).ifPresent(TaskCgroup::killAll);
    }

    @Override
    public void signal(TaskHandle handle, String signal) throws DriverException {
        int sig = DriverSignals.parse(signal);
        RawTask task = require(handle);
        if (task.exit.isDone()) {
            throw new DriverException("task is not running", false);
        }
        // As Nomad's executor: to the main process (the shim's child); while it is still starting, to the whole group.
        List<Long> children = ProcStat.children(task.pid);
        if (children.size() == 1 && ProcessSignals.signalProcess(Math.toIntExact(children.getFirst()), sig)) {
            return;
        }
        signalTask(task, sig);
    }

    @Override
    public Optional<TaskCgroup> cgroupOf(TaskHandle handle) {
        return cgroups == null ? Optional.empty() : cgroups.find(handle.driverState().get(TaskHandles.CGROUP));
    }

    @Override
    public void destroy(TaskHandle handle, boolean force) throws DriverException {
        RawTask task = tasks.get(handle.taskId());
        if (task != null && !task.exit.isDone()) {
            if (!force) {
                throw new DriverException("cannot destroy running task", false);
            }
            killGroup(task);
            if (!awaitExit(task, KILL_WAIT)) {
                throw new DriverException("process did not exit after 15 seconds", true);
            }
        }
        if (task != null) {
            tasks.remove(handle.taskId(), task);
        }
        // Kills whatever escaped the process group (a daemonised grandchild) and removes the directories.
        cgroupOf(handle).ifPresent(Cleanup::removeQuietly);
        String exitFile = handle.driverState().get("exit_file");
        if (exitFile != null && !exitFile.isEmpty()) {
            Cleanup.deleteQuietly(Path.of(exitFile));
        }
    }

    /**
     * Running with the same start ticks → reattached (not our child: its exit is watched by {@link RecoveredExits}); exited
     * with an exit file → a handle whose wait completes at once with that exit; otherwise {@link TaskNotFoundException}.
     */
    /** raw_exec enforces no limits (its cgroup is for stats and cores): a new size changes nothing on the host. */
    @Override
    public ResizeResult resize(TaskHandle handle, TaskConfig task) {
        return new ResizeResult.Applied("raw_exec enforces no limits");
    }

    @Override
    public TaskHandle recover(TaskHandle handle) throws DriverException {
        RawTask known = tasks.get(handle.taskId());
        if (known != null) {
            return known.handle;
        }
        Map<String, String> s = handle.driverState();
        int pid;
        long startTicks;
        try {
            pid = Integer.parseInt(s.getOrDefault(TaskHandles.PID, ""));
            startTicks = Long.parseLong(s.getOrDefault(TaskHandles.START_TICKS, ""));
        } catch (NumberFormatException ex) {
            throw new TaskNotFoundException(handle.taskId());
        }
        int pgid = Integer.parseInt(s.getOrDefault("pgid", Integer.toString(pid)));
        Path exitFile = Path.of(s.getOrDefault("exit_file", ""));
        RawTask task = new RawTask(handle, pid, pgid, startTicks, exitFile);
        if (pid > 1 && ProcStat.isRunning(pid, startTicks)) {
            recovered.watch(task, spawner);
        } else {
            Optional<ExitResult> recorded = s.containsKey("exit_file") ? ExitShim.read(exitFile) : Optional.empty();
            if (recorded.isEmpty()) {
                throw new TaskNotFoundException(handle.taskId());
            }
            task.exit.complete(recorded.get());
        }
        RawTask raced = tasks.putIfAbsent(handle.taskId(), task);
        if (raced != null) {
            task.cancelWatch();
            return raced.handle;
        }
        return handle;
    }

    private void signalTask(RawTask task, int sig) throws DriverException {
        if (!ProcessSignals.signalGroup(task.pgid, sig)) {
            // Right after start, setsid may not have run yet: the group does not exist, the process does.
            ProcessSignals.signalProcess(task.pid, sig);
        }
    }

    private void killGroup(RawTask task) throws DriverException {
        task.killedByAgent = true;
        signalTask(task, Signals.SIGKILL);
    }

    private static boolean awaitExit(RawTask task, Duration timeout) throws DriverException {
        try {
            task.exit.get(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException ex) {
            return false;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new DriverException("interrupted while waiting for task " + task.handle.taskId() + " to exit", true, ex);
        } catch (ExecutionException ex) {
            return true;
        }
    }

    private RawTask require(TaskHandle handle) throws TaskNotFoundException {
        RawTask task = tasks.get(handle.taskId());
        if (task == null) {
            throw new TaskNotFoundException(handle.taskId());
        }
        return task;
    }

    /** The launch shims under this driver's exit-file directory that are still running (see {@link ShimScanner}). */
    @Override
    public List<TaskHandle> liveTasks() {
        return ShimScanner.scan(Path.of("/proc"), exitDir, clock.instant());
    }

    /** Stops watching; tasks keep running (agent shutdown must not kill them) and can be recovered later. */
    @Override
    public void close() {
        recovered.close();
        if (spawner != null) {
            spawner.close();
        }
    }
}
