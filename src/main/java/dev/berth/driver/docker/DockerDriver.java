package dev.berth.driver.docker;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.exception.NotModifiedException;
import com.github.dockerjava.api.model.Version;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import dev.berth.config.BerthProperties;
import dev.berth.config.NodeIdentity;
import dev.berth.driver.DriverException;
import dev.berth.driver.DriverFingerprint;
import dev.berth.driver.DriverSignals;
import dev.berth.driver.ExecSession;
import dev.berth.driver.ExitResult;
import dev.berth.driver.HealthState;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskConfigValidationException;
import dev.berth.driver.TaskDriver;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.TaskNotFoundException;
import dev.berth.host.Signals;
import dev.berth.host.cgroup.CpuPartition;

/**
 * The {@code docker} driver: a container per task on the Engine API (docker-java, unversioned paths), named {@code <task>-<allocId>},
 * labelled with the alloc/task ids, the alloc dir at {@code /alloc}, {@code local/} at {@code /local}, {@code secrets/} at
 * {@code /secrets}; logs followed into the task's files; {@code alloc exec} by the engine's exec API ({@link ContainerExec}).
 * driverState carries {@code container_id} (for recover) and the container's cgroup ({@link ContainerCgroup}) for stats.
 */
@Component
public class DockerDriver implements TaskDriver, AutoCloseable {

    public static final String NAME = "docker";
    public static final String STATE_CONTAINER_ID = "container_id";
    public static final String LABEL_ALLOC_ID = "dev.berth.alloc_id";
    public static final String LABEL_TASK = "dev.berth.task_name";
    public static final String LABEL_JOB = "dev.berth.job_name";
    public static final String LABEL_TASK_GROUP = "dev.berth.task_group";
    public static final String LABEL_NAMESPACE = "dev.berth.namespace";
    /** The ID of the node (agent) that created the container: the reconciliation only ever touches its own node's. */
    public static final String LABEL_NODE_ID = "dev.berth.node_id";

    private static final Logger log = LoggerFactory.getLogger(DockerDriver.class);
    /** Bound on waiting for a container to die after SIGKILL. */
    private static final Duration KILL_GRACE = Duration.ofSeconds(10);

    private final boolean enabled;
    private final boolean pullMissing;
    private final String nodeId;
    private final DockerEngineProperties engine;
    private final Clock clock;
    /** Made on first use ({@link #docker()}), so a disabled driver never loads docker-java. */
    private final DockerConnection.OnFirstUse connection;
    private final Map<String, RunningContainer> containers = new ConcurrentHashMap<>();
    private final SharedCores cores;
    private final AtomicBoolean closed = new AtomicBoolean();

    private record RunningContainer(String id, CompletableFuture<ExitResult> exit, ContainerLogs logs) {
    }

    @Autowired
    public DockerDriver(BerthProperties properties, DockerEngineProperties engine, NodeIdentity node, Clock clock) {
        this(properties.drivers().docker().enabled(), properties.drivers().docker().pull(), engine, node.id(), clock);
    }

    /**
     * For tests and tools: a driver against {@code engine.host()} without a Spring context; {@code nodeId} labels the
     * containers it creates and selects the ones {@link #liveTasks} reports.
     */
    public DockerDriver(boolean enabled, String pullPolicy, DockerEngineProperties engine, String nodeId, Clock clock) {
        if (!pullPolicy.equals("missing") && !pullPolicy.equals("never")) {
            throw new IllegalArgumentException("'berth.drivers.docker.pull' must be 'missing' or 'never', was '" + pullPolicy + "'");
        }
        this.enabled = enabled;
        this.pullMissing = pullPolicy.equals("missing");
        this.nodeId = java.util.Objects.requireNonNull(nodeId, "'nodeId' must not be null");
        this.engine = engine;
        this.clock = clock;
        this.connection = new DockerConnection.OnFirstUse(engine, clock);
        this.cores = new SharedCores(this.nodeId);
    }

    /** The node's cores were split anew: containers without reserved cores move off the reserved ones ({@link SharedCores}). */
    public void applyPartition(CpuPartition partition) {
        cores.apply(partition, enabled && connected() ? () -> docker().calls() : null);
    }

    private DockerConnection docker() {
        return connection.get();
    }

    /** Whether the engine connections were made (they are on first use only). */
    boolean connected() {
        return connection.opened();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Duration fingerprintPeriod() {
        return engine.fingerprintPeriod();
    }

    @Override
    public DriverFingerprint fingerprint() {
        if (!enabled) {
            return DriverFingerprint.disabled();
        }
        try {
            DockerClient health = docker().health();
            health.pingCmd().exec();
            Version version = health.versionCmd().exec();
            Map<String, String> attributes = new LinkedHashMap<>();
            attributes.put("driver.docker", "true");
            attributes.put("driver.docker.version", String.valueOf(version.getVersion()));
            attributes.put("driver.docker.api_version", String.valueOf(version.getApiVersion()));
            attributes.put("driver.docker.os_type", String.valueOf(version.getOperatingSystem()));
            return DriverFingerprint.healthy(attributes);
        } catch (RuntimeException e) {
            log.debug("docker engine at {} not reachable: {}", engine.host(), e.toString());
            return new DriverFingerprint(HealthState.UNHEALTHY, "Docker daemon not reachable", Map.of());
        }
    }

    @Override
    public void validate(Map<String, Object> config) throws TaskConfigValidationException {
        DockerTaskConfig.parse(config);
    }

    @Override
    public TaskHandle start(TaskConfig task) throws DriverException {
        DockerTaskConfig config;
        try {
            config = DockerTaskConfig.parse(task.config());
        } catch (TaskConfigValidationException e) {
            throw new DriverException(e.getMessage(), false, e);
        }
        try {
            task.devices().forEach(ContainerSpec::validate);
        } catch (IllegalArgumentException e) {
            throw new DriverException(e.getMessage(), false, e);
        }
        DockerConnection c = docker();
        c.ops().ensureImage(config.image(), pullMissing);
        String name = ContainerSpec.containerName(task);
        String id = null;
        ContainerLogs logs = null;
        try {
            c.ops().removeStale(name);
            long coresSeen = cores.generation();
            CreateContainerCmd create = c.calls().createContainerCmd(config.image())
                    .withName(name)
                    .withEnv(ContainerSpec.env(task, config))
                    .withLabels(ContainerSpec.labels(task, config, nodeId))
                    .withHostConfig(ContainerSpec.hostConfig(task, config, cores.cpusetFor(task.reservedCores())));
            ContainerSpec.command(create, config);
            id = create.exec().getId();
            logs = ContainerLogs.fresh(c.client(), id, task.stdoutPath(), task.stderrPath());
            c.calls().startContainerCmd(id).exec();
            cores.recheck(c.calls(), id, task.reservedCores(), coresSeen);
            logs.follow();
            Map<String, String> state = c.ops().containerState(id);
            if (task.stdoutPath() != null) {
                state.put("stdout_path", task.stdoutPath().toString());
            }
            if (task.stderrPath() != null) {
                state.put("stderr_path", task.stderrPath().toString());
            }
            track(id, logs);
            return new TaskHandle(NAME, task.id(), clock.instant(), state);
        } catch (IOException e) {
            ContainerLogs.closeQuietly(logs);
            removeQuietly(id);
            throw new DriverException("failed to prepare task directories or log files: " + e.getMessage(), false, e);
        } catch (RuntimeException e) {
            ContainerLogs.closeQuietly(logs);
            removeQuietly(id);
            // an engine hiccup may heal: let the restart policy retry; a bad request will not
            boolean recoverable = !(e instanceof com.github.dockerjava.api.exception.BadRequestException);
            throw new DriverException(EngineErrors.describe(engine.host(), "failed to start container for task " + task.id(), e),
                    recoverable, e);
        }
    }

    @Override
    public CompletableFuture<ExitResult> waitTask(TaskHandle handle) {
        RunningContainer container = containers.get(handle.driverState().getOrDefault(STATE_CONTAINER_ID, ""));
        if (container == null) {
            return CompletableFuture.failedFuture(new TaskNotFoundException(handle.taskId()));
        }
        return container.exit().copy();
    }

    @Override
    public void stop(TaskHandle handle, Duration timeout, String signal) throws DriverException {
        String id = containerId(handle);
        String sig = signal == null || signal.isBlank() ? "SIGTERM" : canonicalSignal(signal);
        if (!kill(handle, id, sig)) {
            return;
        }
        RunningContainer container = containers.get(id);
        if (container != null && ContainerWaiter.awaitExit(container.exit(), timeout)) {
            return;
        }
        if (container == null && !docker().ops().isRunningAfter(id, timeout)) {
            return;
        }
        kill(handle, id, "SIGKILL");
        if (container != null) {
            ContainerWaiter.awaitExit(container.exit(), KILL_GRACE);
        }
    }

    @Override
    public void signal(TaskHandle handle, String signal) throws DriverException {
        String id = containerId(handle);
        if (!kill(handle, id, canonicalSignal(signal))) {
            throw new DriverException("cannot signal task " + handle.taskId() + ": container is not running", false);
        }
    }

    @Override
    public void destroy(TaskHandle handle, boolean force) throws DriverException {
        String id = containerId(handle);
        if (!force) {
            try {
                if (Boolean.TRUE.equals(docker().calls().inspectContainerCmd(id).exec().getState().getRunning())) {
                    throw new DriverException("cannot destroy running task", false);
                }
            } catch (NotFoundException e) {
                forget(id);
                return;
            }
        }
        try {
            docker().calls().removeContainerCmd(id).withForce(true).withRemoveVolumes(true).exec();
        } catch (NotFoundException e) {
            // already gone: destroy is idempotent
        } catch (RuntimeException e) {
            throw new DriverException(EngineErrors.describe(engine.host(), "failed to remove container " + id, e), true, e);
        }
        forget(id);
    }

    @Override
    public TaskHandle recover(TaskHandle handle) throws DriverException {
        String id = containerId(handle);
        if (containers.containsKey(id)) {
            return handle;
        }
        InspectContainerResponse inspect;
        try {
            inspect = docker().calls().inspectContainerCmd(id).exec();
        } catch (NotFoundException e) {
            throw new TaskNotFoundException(handle.taskId());
        } catch (RuntimeException e) {
            throw new DriverException(EngineErrors.describe(engine.host(), "failed to inspect container " + id, e), true, e);
        }
        ContainerLogs logs = null;
        Path[] paths = logPaths(handle);
        try {
            // after the last entry the previous agent copied (file mtimes, ContainerLogCopier), also for an exited container
            logs = ContainerLogs.resuming(docker().client(), id, paths[0], paths[1]);
        } catch (IOException e) {
            log.warn("task {}: cannot reopen log files: {}", handle.taskId(), e.toString());
        }
        track(id, logs);
        Map<String, String> state = new HashMap<>(handle.driverState());
        state.putAll(docker().ops().containerState(id));
        return new TaskHandle(handle.driver(), handle.taskId(), handle.startedAt(), state);
    }

    /**
     * Every container labelled with this node's ID ({@link #LABEL_NODE_ID}), running or not: created, running and exited
     * containers all hold resources and a name. Containers of another node ID (another agent on this host) and
     * containers without the label (not Berth's) are never returned. Throws when the engine cannot be asked.
     */
    @Override
    public List<TaskHandle> liveTasks() {
        if (!enabled) {
            return List.of();
        }
        return ContainerEngine.owned(docker().calls(), nodeId, clock.instant());
    }

    /** A container is identified by its ID, whatever pid its init has now. */
    @Override
    public String taskIdentity(TaskHandle handle) {
        return handle.driverState().getOrDefault(STATE_CONTAINER_ID, "");
    }

    /**
     * Agent shutdown: stops following logs and waiting, closes the engine connections. Containers keep running
     * (a stopping agent leaves its tasks alone; {@link #recover} finds them again).
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        containers.keySet().forEach(this::forget);
        cores.close();
        connection.ifOpen(DockerConnection::close);
    }

    private void track(String id, ContainerLogs logs) {
        DockerConnection c = docker();
        c.oomEvents().ensureStarted();
        CompletableFuture<ExitResult> exit = new CompletableFuture<>();
        containers.put(id, new RunningContainer(id, exit, logs));
        Thread.ofVirtual().name("docker-wait-" + id.substring(0, 12))
                .start(() -> ContainerWaiter.await(c.client(), id, logs, exit, closed::get, c.oomEvents()));
    }

    private void forget(String id) {
        connection.ifOpen(c -> c.oomEvents().forget(id));
        RunningContainer container = containers.remove(id);
        if (container != null && container.logs() != null) {
            try {
                container.logs().close();
            } catch (IOException e) {
                log.debug("closing log stream of {}: {}", id, e.toString());
            }
        }
    }

    @Override
    public ExecSession exec(TaskHandle handle, ExecSession.Request request) throws DriverException {
        RunningContainer running = containers.get(containerId(handle));
        return ContainerExec.start(docker().calls(), engine.host(), running == null || running.exit().isDone() ? null : running.id(), request);
    }

    /** Sends {@code signal}; false when the container exists but is not running. */
    private boolean kill(TaskHandle handle, String id, String signal) throws DriverException {
        try {
            docker().calls().killContainerCmd(id).withSignal(signal).exec();
            return true;
        } catch (NotFoundException e) {
            throw new TaskNotFoundException(handle.taskId());
        } catch (ConflictException | NotModifiedException e) {
            return false;
        } catch (RuntimeException e) {
            throw new DriverException(EngineErrors.describe(engine.host(), "failed to send " + signal + " to container " + id, e), true, e);
        }
    }

    private void removeQuietly(String id) {
        if (id == null) {
            return;
        }
        forget(id);
        try {
            docker().calls().removeContainerCmd(id).withForce(true).exec();
        } catch (RuntimeException e) {
            log.debug("cleanup of container {} failed: {}", id, e.toString());
        }
    }

    private static String containerId(TaskHandle handle) throws DriverException {
        String id = handle.driverState().get(STATE_CONTAINER_ID);
        if (id == null || id.isBlank()) {
            throw new DriverException("handle of task " + handle.taskId() + " has no container_id", false);
        }
        return id;
    }

    private static Path[] logPaths(TaskHandle handle) {
        String out = handle.driverState().get("stdout_path");
        String err = handle.driverState().get("stderr_path");
        return new Path[] {out == null ? null : Path.of(out), err == null ? null : Path.of(err)};
    }

    /** The engine wants a name: {@code usr1}/{@code SIGUSR1} → {@code SIGUSR1}; unknown names are refused. */
    private static String canonicalSignal(String signal) throws DriverException {
        return Signals.name(DriverSignals.parse(signal));
    }
}
