package dev.berth.alloc;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.AllocExceptions.BadRequestException;
import dev.berth.alloc.AllocExceptions.ConflictException;
import dev.berth.alloc.AllocExceptions.UnknownAllocException;
import dev.berth.alloc.AllocExceptions.UnknownTaskException;
import dev.berth.alloc.admission.AdmissionException;
import dev.berth.alloc.admission.DeviceAdmission;
import dev.berth.alloc.admission.NodeCapacity;
import dev.berth.alloc.admission.PortAllocator;
import dev.berth.alloc.admission.ResourceAssignment;
import dev.berth.alloc.admission.UpdateAdmission;
import dev.berth.alloc.runner.AllocRunner;
import dev.berth.alloc.runner.AllocRunnerContext;
import dev.berth.alloc.spec.AllocSpecs;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.SpecValidationException;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.store.AllocStateStore;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.task.TaskRunner;
import dev.berth.alloc.task.TaskState;
import dev.berth.device.AllocatedDevice;
import dev.berth.device.DeviceAllocator;
import dev.berth.driver.DriverException;
import dev.berth.driver.DriverManager;
import dev.berth.driver.HealthState;
import dev.berth.driver.TaskConfigValidationException;
import dev.berth.driver.TaskDriver;
import dev.berth.host.Signals;

/**
 * The allocation service: validation, admission (CPU, memory, ports, devices), latest-wins submission, the runner registry and the
 * lifecycle calls (restart, signal, destroy). Agent shutdown ({@link #shutdown}) ends every runner but leaves tasks running.
 */
public class AllocManager {

    private static final Logger log = LoggerFactory.getLogger(AllocManager.class);

    /** What a submission did. */
    public enum Outcome { CREATED, UPDATED, STALE }

    public record SubmitResult(Outcome outcome, AllocView view) {
    }

    private final AllocStateStore store;
    private final DriverManager drivers;
    private final NodeCapacity capacity;
    private final PortAllocator ports;
    private final Clock clock;
    private final Duration maxKillTimeout;
    private final DeviceAllocator devices;
    private final Map<String, AllocRunner> runners = new ConcurrentHashMap<>();
    private final Map<String, Instant> submittedAt = new ConcurrentHashMap<>();
    private final Object admissionLock = new Object();
    private volatile AllocRunnerContext runnerContext;
    private volatile AllocMetrics metrics;

    public AllocManager(AllocStateStore store, DriverManager drivers, NodeCapacity capacity, PortAllocator ports, Clock clock,
                        Duration maxKillTimeout) {
        this(store, drivers, capacity, ports, clock, maxKillTimeout, null);
    }

    /** @param devices device admission; null on a node without device support (device requests are then refused) */
    public AllocManager(AllocStateStore store, DriverManager drivers, NodeCapacity capacity, PortAllocator ports, Clock clock,
                        Duration maxKillTimeout, DeviceAllocator devices) {
        this.devices = devices;
        this.store = store;
        this.drivers = drivers;
        this.capacity = capacity;
        this.ports = ports;
        this.clock = clock;
        this.maxKillTimeout = maxKillTimeout;
    }

    /** Wires the runner collaborators (their listener calls back into this manager). */
    void init(AllocRunnerContext context, AllocMetrics allocMetrics) {
        this.runnerContext = context;
        this.metrics = allocMetrics;
    }

    /**
     * Validates, admits and stores a new allocation, or queues an update of a known one (latest wins: a stale or equal
     * {@code AllocModifyIndex} changes nothing and returns the current state).
     */
    public SubmitResult submit(String pathId, AllocationSpec submitted) throws SpecValidationException, AdmissionException {
        AllocationSpec spec = submitted.id() == null || submitted.id().isEmpty()
                ? new AllocationSpec(pathId, submitted.name(), submitted.namespace(), submitted.jobId(), submitted.job(),
                submitted.taskGroup(), submitted.desiredStatus(), submitted.allocModifyIndex(), submitted.previousAllocation(),
                submitted.allocatedResources())
                : submitted;
        if (!spec.id().equals(pathId)) {
            throw new SpecValidationException("ID", "Allocation ID \"" + spec.id() + "\" does not match the path ID \"" + pathId + "\"");
        }
        AllocSpecs.validateStructure(spec);
        spec = AllocSpecs.withDefaults(spec, maxKillTimeout);
        AllocSpecs.validatePolicies(spec);
        validateDrivers(spec);
        synchronized (admissionLock) {
            AllocRunner existing = runners.get(spec.id());
            if (existing != null) {
                if (spec.modifyIndex() <= existing.record().spec().modifyIndex()) {
                    return new SubmitResult(Outcome.STALE, view(existing));
                }
                TaskGroupSpec oldGroup = existing.record().spec().group().orElseThrow();
                TaskGroupSpec newGroup = spec.group().orElseThrow();
                if (!oldGroup.name().equals(newGroup.name())) {
                    throw new SpecValidationException("TaskGroup", "An update cannot change the task group");
                }
                if (!spec.desiredTerminal()) {
                    UpdateAdmission.check(oldGroup, newGroup, allocated(), capacity);
                }
                // Ports and resources stay as admitted; an update does not re-admit.
                existing.update(spec.withAllocatedResources(existing.record().spec().allocatedResources()));
                return new SubmitResult(Outcome.UPDATED, view(existing));
            }
            if (store.isDeleted(spec.id())) {
                throw new AdmissionException("id", "Allocation \"" + spec.id() + "\" was destroyed and cannot be reused");
            }
            if (!spec.desiredTerminal()) {
                admit(spec);
                Map<String, List<AllocatedDevice>> assigned = DeviceAdmission.assigned(spec);
                spec = ResourceAssignment.assign(spec, ports);
                spec = DeviceAdmission.reserve(spec, assigned, devices, ports);
            }
            AllocRecord record = new AllocRecord(spec, ClientStatus.PENDING, "No tasks have started");
            try {
                store.putAlloc(record);
            } catch (RuntimeException e) {
                // Nothing stored: give back what admission took.
                ports.release(spec.id());
                releaseDevices(spec.id());
                throw e;
            }
            AllocRunner runner = new AllocRunner(runnerContext, record);
            runners.put(spec.id(), runner);
            submittedAt.put(spec.id(), clock.instant());
            runner.start();
            return new SubmitResult(Outcome.CREATED, view(runner));
        }
    }

    private void validateDrivers(AllocationSpec spec) throws SpecValidationException {
        TaskGroupSpec group = spec.group().orElseThrow();
        for (TaskSpec t : group.tasks()) {
            String field = "Job.TaskGroups[" + group.name() + "].Tasks[" + t.name() + "]";
            TaskDriver driver = drivers.driver(t.driver()).orElseThrow(() ->
                    new SpecValidationException(field + ".Driver", "Unknown driver \"" + t.driver() + "\""));
            HealthState health;
            try {
                health = driver.fingerprint().health();
            } catch (RuntimeException e) {
                health = HealthState.UNDETECTED;
            }
            if (health != HealthState.HEALTHY) {
                throw new SpecValidationException(field + ".Driver", "Driver \"" + t.driver() + "\" is "
                        + (health == HealthState.UNDETECTED ? "disabled or not detected" : "unhealthy") + " on this node");
            }
            try {
                driver.validate(t.config() == null ? Map.of() : t.config());
            } catch (TaskConfigValidationException e) {
                throw new SpecValidationException(field + ".Config" + (e.field() == null ? "" : "." + e.field()), e.getMessage());
            }
        }
    }

    private void admit(AllocationSpec spec) throws AdmissionException {
        long[] used = allocated();
        long cpu = 0;
        long mem = 0;
        for (TaskSpec t : spec.group().orElseThrow().tasks()) {
            cpu += t.cpu();
            mem += t.memoryMb();
        }
        if (used[0] + cpu > capacity.cpuMhz()) {
            throw new AdmissionException("cpu", "Resources exhausted on node: cpu (asked " + cpu + " MHz, "
                    + (capacity.cpuMhz() - used[0]) + " MHz unallocated)");
        }
        if (used[1] + mem > capacity.memoryMb()) {
            throw new AdmissionException("memory", "Resources exhausted on node: memory (asked " + mem + " MB, "
                    + (capacity.memoryMb() - used[1]) + " MB unallocated)");
        }
    }

    /** {cpuMhz, memoryMb} allocated to allocs that are neither desired- nor client-terminal. */
    long[] allocated() {
        long cpu = 0;
        long mem = 0;
        for (AllocRunner r : runners.values()) {
            AllocRecord rec = r.record();
            if (rec.spec().desiredTerminal() || ClientStatus.terminal(rec.clientStatus()) || r.runDone().isDone()) {
                continue;
            }
            for (TaskSpec t : rec.spec().group().orElseThrow().tasks()) {
                cpu += t.cpu();
                mem += t.memoryMb();
            }
        }
        return new long[] {cpu, mem};
    }

    public List<AllocView> list() {
        List<AllocView> views = new ArrayList<>();
        runners.values().forEach(r -> views.add(view(r)));
        views.sort(java.util.Comparator.comparing(v -> v.record().id()));
        return views;
    }

    /** Whether the allocation is known (a map lookup; builds no view). */
    public boolean exists(String id) {
        return runners.containsKey(id);
    }

    public Optional<AllocView> get(String id) {
        return Optional.ofNullable(runners.get(id)).map(AllocManager::view);
    }

    private static AllocView view(AllocRunner r) {
        return new AllocView(r.record(), r.taskStates());
    }

    /** The runner of a known allocation, if any (device health acts on its tasks). */
    public Optional<AllocRunner> runnerOf(String id) {
        return Optional.ofNullable(runners.get(id));
    }

    private AllocRunner runner(String id) throws UnknownAllocException {
        AllocRunner r = runners.get(id);
        if (r == null) {
            throw new UnknownAllocException(id);
        }
        return r;
    }

    /** §2 restart semantics: one task, all tasks, or the running ones. Blocks until the old processes exited. */
    public void restart(String id, String taskName, boolean allTasks) throws UnknownAllocException, UnknownTaskException,
            BadRequestException, ConflictException, InterruptedException {
        AllocRunner r = runner(id);
        boolean named = taskName != null && !taskName.isEmpty();
        if (named && allTasks) {
            throw new BadRequestException("task name cannot be set when restarting all tasks");
        }
        if (named) {
            TaskRunner tr = r.task(taskName);
            if (tr == null) {
                throw new UnknownTaskException();
            }
            try {
                tr.restart("User requested task to restart", false);
            } catch (TaskRunner.TaskNotRunningException e) {
                throw new ConflictException(e.getMessage());
            }
            return;
        }
        if (r.record().spec().desiredTerminal() || ClientStatus.terminal(r.record().clientStatus())) {
            throw new ConflictException("restart of an alloc that should not run");
        }
        if (allTasks) {
            // Nomad's RestartAll: every task, dead ones too while their run is not over, prestart tasks first
            r.restartAll("User requested all tasks to restart");
            return;
        }
        String reason = "User requested running tasks to restart";
        try (var exec = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("berth-restart-", 0).factory())) {
            for (TaskRunner tr : r.taskRunners()) {
                exec.submit(() -> {
                    try {
                        tr.restart(reason, false);
                    } catch (TaskRunner.TaskNotRunningException e) {
                        // §2: tasks that are not running are skipped
                    }
                    return null;
                });
            }
        }
    }

    /** §2 signal semantics: one task, or every running task when {@code task} is empty. */
    public void signal(String id, String task, String signal) throws UnknownAllocException, UnknownTaskException,
            ConflictException, BadRequestException {
        AllocRunner r = runner(id);
        if (signal == null || signal.isEmpty()) {
            throw new BadRequestException("Signal must be set");
        }
        if (Signals.lookup(signal).isEmpty()) {
            // Checked before any task is chosen: a bad name must leave no Signaling event and fail even with no running task.
            throw new BadRequestException("unknown signal \"" + signal + "\"");
        }
        List<TaskRunner> targets = new ArrayList<>();
        if (task != null && !task.isEmpty()) {
            TaskRunner tr = r.task(task);
            if (tr == null) {
                throw new UnknownTaskException();
            }
            targets.add(tr);
        } else {
            r.taskRunners().stream().filter(tr -> tr.state().running()).forEach(targets::add);
        }
        for (TaskRunner tr : targets) {
            try {
                tr.signal(signal, "User requested signal");
            } catch (TaskRunner.TaskNotRunningException e) {
                throw new ConflictException(e.getMessage());
            } catch (DriverException | IllegalArgumentException e) {
                throw new BadRequestException(e.getMessage());
            }
        }
    }

    /** Destroys an allocation (idempotent). The future completes once its tasks are dead and its state is gone. */
    public CompletableFuture<Void> destroy(String id) throws UnknownAllocException {
        AllocRunner r = runners.get(id);
        if (r == null && store.isDeleted(id)) {
            // Already destroyed: a repeated destroy is a no-op, not an error.
            return CompletableFuture.completedFuture(null);
        }
        return runner(id).destroy();
    }

    /**
     * Agent start: recreates a runner for every stored allocation; running tasks are re-attached through their persisted
     * driver handles, terminal allocs only keep their final state. Ports are claimed again.
     */
    public void restore() {
        for (AllocRecord rec : store.allocs()) {
            try {
                AllocationSpec spec = rec.spec();
                ports.claim(spec.id(), spec.group().orElseThrow().networks());
                spec.group().orElseThrow().tasks().forEach(t -> ports.claim(spec.id(), t.resources() == null ? null : t.resources().networks()));
                AllocRunner runner = new AllocRunner(runnerContext, rec, true);
                runners.put(spec.id(), runner);
                runner.start();
                log.info("restored allocation: alloc={} status={}", spec.id(), rec.clientStatus());
            } catch (RuntimeException e) {
                log.error("cannot restore allocation: alloc={}", rec.id(), e);
            }
        }
    }

    /** Agent shutdown: ends every runner thread promptly; tasks keep running. */
    public void shutdown(Duration wait) {
        try (var exec = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("berth-shutdown-", 0).factory())) {
            for (AllocRunner r : runners.values()) {
                exec.submit(() -> {
                    r.shutdown(wait);
                    return null;
                });
            }
        }
    }

    Collection<AllocRunner> runners() {
        return runners.values();
    }

    /** The runner of a known alloc (previous-alloc watcher), or empty. */
    Optional<AllocRunner> runnerFor(String id) {
        return Optional.ofNullable(runners.get(id));
    }

    /**
     * A terminal alloc as the garbage collector sees it.
     *
     * @param finishedAt the latest task {@code FinishedAt}, or null when no task ever ran
     * @param dir        its alloc directory
     */
    public record TerminalAlloc(String id, Instant finishedAt, java.nio.file.Path dir) {
    }

    /** Allocs that are done for good: their run loop ended and they are client- or desired-terminal. */
    public List<TerminalAlloc> terminalAllocs() {
        List<TerminalAlloc> out = new ArrayList<>();
        for (AllocRunner r : runners.values()) {
            if (isTerminal(r)) {
                Instant finished = r.taskStates().values().stream().map(TaskState::finishedAt).filter(java.util.Objects::nonNull)
                        .max(java.util.Comparator.naturalOrder()).orElse(null);
                out.add(new TerminalAlloc(r.id(), finished, r.dir().path()));
            }
        }
        return out;
    }

    /** Whether a known alloc is terminal (eligible for GC). */
    public boolean isTerminal(String id) throws UnknownAllocException {
        return isTerminal(runner(id));
    }

    private static boolean isTerminal(AllocRunner r) {
        AllocRecord rec = r.record();
        return r.runDone().isDone() && (rec.spec().desiredTerminal() || ClientStatus.terminal(rec.clientStatus()));
    }

    /** Number of allocs this node knows (live and terminal). */
    public int allocCount() {
        return runners.size();
    }

    // ---- listener callbacks ----

    void taskStarted(String allocId) {
        Instant put = submittedAt.remove(allocId);
        if (put != null && metrics != null) {
            metrics.started(Duration.between(put, clock.instant()));
        }
    }

    void allocFinished(String allocId) {
        ports.release(allocId);
    }

    void allocDestroyed(String allocId) {
        ports.release(allocId);
        // Devices stay reserved while the alloc exists (also when terminal), as Nomad keeps them until GC/destroy.
        releaseDevices(allocId);
        runners.remove(allocId);
        submittedAt.remove(allocId);
        log.info("allocation destroyed: alloc={}", allocId);
    }

    private void releaseDevices(String allocId) {
        if (devices != null) {
            devices.release(allocId);
        }
    }

    Map<String, TaskState> taskStates(String id) {
        AllocRunner r = runners.get(id);
        return r == null ? new HashMap<>() : r.taskStates();
    }
}
