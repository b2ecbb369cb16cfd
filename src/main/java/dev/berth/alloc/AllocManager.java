package dev.berth.alloc;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.AllocExceptions.InvalidLifecycleRequestException;
import dev.berth.alloc.AllocExceptions.AllocStateException;
import dev.berth.alloc.AllocExceptions.UnknownAllocException;
import dev.berth.alloc.AllocExceptions.UnknownTaskException;
import dev.berth.alloc.admission.AdmissionException;
import dev.berth.alloc.admission.NodeAdmission;
import dev.berth.alloc.admission.Usage;
import dev.berth.alloc.runner.AllocRunner;
import dev.berth.alloc.runner.AllocRunnerContext;
import dev.berth.alloc.runner.AllocRunners;
import dev.berth.alloc.spec.AllocSpecs;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.SpecValidationException;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.store.AllocDocument;
import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.store.AllocStateStore;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.task.TaskRunner;
import dev.berth.alloc.task.TaskState;
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
    private final AllocRunners runners;
    private final NodeAdmission admission;
    private final AllocRunnerContext runnerContext;
    private final RunnerEvents events;
    private final Duration maxKillTimeout;
    private final Object admissionLock = new Object();
    private final AllocChanges changes;

    AllocManager(AllocStateStore store, DriverManager drivers, AllocRunners runners, NodeAdmission admission,
                 AllocRunnerContext runnerContext, RunnerEvents events, Duration maxKillTimeout, AllocChanges changes) {
        this.store = store;
        this.drivers = drivers;
        this.runners = runners;
        this.admission = admission;
        this.runnerContext = runnerContext;
        this.events = events;
        this.maxKillTimeout = maxKillTimeout;
        this.changes = changes;
        changes.views(this::get);
    }

    /** The allocations' modify indexes, documents and change events. */
    public AllocChanges changes() {
        return changes;
    }

    /**
     * Validates, admits and stores a new allocation, or queues an update of a known one (latest wins: a stale or equal
     * {@code AllocModifyIndex} changes nothing and returns the current state).
     */
    public SubmitResult submit(String pathId, AllocationSpec submitted) throws SpecValidationException, AdmissionException {
        return submit(pathId, submitted, null);
    }

    /**
     * {@link #submit(String, AllocationSpec)} keeping {@code document}, the submitted JSON object whole (unknown fields
     * included), to be returned around the node's own fields; null keeps the previous one.
     */
    public SubmitResult submit(String pathId, AllocationSpec submitted, Map<String, Object> document)
            throws SpecValidationException, AdmissionException {
        AllocationSpec spec = submitted.id() == null || submitted.id().isEmpty() ? submitted.withId(pathId) : submitted;
        if (!spec.id().equals(pathId)) {
            throw new SpecValidationException("ID", "Allocation ID \"" + spec.id() + "\" does not match the path ID \"" + pathId + "\"");
        }
        AllocSpecs.validateStructure(spec);
        spec = AllocSpecs.withDefaults(spec, maxKillTimeout);
        AllocSpecs.validatePolicies(spec);
        DriverChecks.validate(drivers, spec);
        synchronized (admissionLock) {
            Optional<AllocRunner> existing = runners.find(spec.id());
            if (existing.isPresent()) {
                return update(existing.get(), spec, document);
            }
            if (store.isDeleted(spec.id())) {
                throw new AdmissionException("id", "Allocation \"" + spec.id() + "\" was destroyed and cannot be reused");
            }
            if (!spec.desiredTerminal()) {
                spec = admission.admit(spec, allocated());
            }
            AllocRecord record = new AllocRecord(spec, ClientStatus.PENDING, "No tasks have started");
            String id = spec.id();
            changes.created(id, spec.namespace(), document, doc -> {
                try {
                    store.putAlloc(record);
                    store.putDocument(id, doc);
                } catch (RuntimeException e) {
                    // Nothing stored: give back what admission took.
                    admission.release(id);
                    throw e;
                }
                AllocRunner runner = new AllocRunner(runnerContext, record);
                runners.add(runner);
                events.submitted(id);
                runner.start();
            });
            return new SubmitResult(Outcome.CREATED, view(runners.find(id).orElseThrow()));
        }
    }

    /**
     * Nomad's {@code /v1/allocation/:id/stop}: stops the allocation as an update with {@code DesiredStatus: stop} would
     * (the next submitted {@code AllocModifyIndex}, the document kept with its desired status changed).
     */
    public AllocView stop(String id) throws UnknownAllocException, SpecValidationException, AdmissionException {
        AllocRunner r = runner(id);
        AllocationSpec latest = r.latestSpec();
        if (latest.desiredTerminal()) {
            return view(r);
        }
        Map<String, Object> doc = changes.entry(id).map(e -> e.document().submitted()).orElse(null);
        Map<String, Object> stopped = doc == null ? null : new java.util.LinkedHashMap<>(doc);
        if (stopped != null) {
            stopped.put("DesiredStatus", AllocationSpec.DESIRED_STOP);
            stopped.put("DesiredDescription", STOPPED_BY_USER);
            if (stopped.get("AllocModifyIndex") instanceof Number) {
                stopped.put("AllocModifyIndex", latest.modifyIndex() + 1);
            }
        }
        AllocationSpec next = latest.withDesiredStatus(AllocationSpec.DESIRED_STOP).withAllocModifyIndex(latest.modifyIndex() + 1);
        return submit(id, next, stopped).view();
    }

    /** {@code DesiredDescription} of an allocation stopped through {@link #stop}. */
    public static final String STOPPED_BY_USER = "alloc was stopped by request";

    private SubmitResult update(AllocRunner existing, AllocationSpec spec, Map<String, Object> document) throws SpecValidationException, AdmissionException {
        if (spec.modifyIndex() <= existing.record().spec().modifyIndex()) {
            return new SubmitResult(Outcome.STALE, view(existing));
        }
        TaskGroupSpec oldGroup = existing.record().spec().group().orElseThrow();
        TaskGroupSpec newGroup = spec.group().orElseThrow();
        if (!oldGroup.name().equals(newGroup.name())) {
            throw new SpecValidationException("TaskGroup", "An update cannot change the task group");
        }
        // ports, devices and cores stay as admitted; a resized task's CPU and memory are admitted and recorded anew
        existing.update(spec.desiredTerminal() ? spec.withAllocatedResources(existing.record().spec().allocatedResources())
                : admission.admitUpdate(existing.record().spec(), spec, allocated()));
        store.putDocument(spec.id(), changes.resubmitted(spec.id(), spec.namespace(), document, spec.desiredTerminal()));
        return new SubmitResult(Outcome.UPDATED, view(existing));
    }

    /** What allocs that are neither desired- nor client-terminal hold. */
    Usage allocated() {
        return allocated(runners.all());
    }

    /** What the runners' allocs that are neither desired- nor client-terminal hold. */
    static Usage allocated(Collection<AllocRunner> all) {
        Usage sum = Usage.NONE;
        for (AllocRunner r : all) {
            AllocRecord rec = r.record();
            if (rec.terminal() || r.runDone().isDone()) {
                continue;
            }
            sum = sum.plus(Usage.held(rec.spec()));
        }
        return sum;
    }

    public List<AllocView> list() {
        List<AllocView> views = new ArrayList<>();
        runners.all().forEach(r -> views.add(view(r)));
        views.sort(java.util.Comparator.comparing(v -> v.record().id()));
        return views;
    }

    /** Whether the allocation is known (a map lookup; builds no view). */
    public boolean exists(String id) {
        return runners.contains(id);
    }

    public Optional<AllocView> get(String id) {
        return runners.find(id).map(this::view);
    }

    private AllocView view(AllocRunner r) {
        AllocChanges.Entry entry = changes.entry(r.id()).orElse(null);
        return entry == null ? new AllocView(r.record(), r.taskStates())
                : new AllocView(r.record(), r.taskStates(), entry.document(), entry.modifyIndex(), entry.modifyTimeNs());
    }

    /**
     * A field of the allocation that its submitter owns changed outside a submission (the local scheduler placed its
     * replacement: its {@code NextAllocation}): its {@code ModifyIndex} moves and blocking queries on it wake.
     */
    public void touch(String id) {
        changes.touched(id);
    }

    /** The runner of a known allocation, if any (device health acts on its tasks). */
    public Optional<AllocRunner> runnerOf(String id) {
        return runners.find(id);
    }

    private AllocRunner runner(String id) throws UnknownAllocException {
        return runners.find(id).orElseThrow(() -> new UnknownAllocException(id));
    }

    /**
     * Restarts one named task (an error if it is not running), all tasks ({@code allTasks}: dead ones too while their run
     * is not over), or else every running task, skipping the others. Blocks until the old processes exited.
     */
    public void restart(String id, String taskName, boolean allTasks) throws UnknownAllocException, UnknownTaskException,
            InvalidLifecycleRequestException, AllocStateException, InterruptedException {
        AllocRunner r = runner(id);
        boolean named = taskName != null && !taskName.isEmpty();
        if (named && allTasks) {
            throw new InvalidLifecycleRequestException("task name cannot be set when restarting all tasks");
        }
        if (named) {
            TaskRunner tr = r.task(taskName);
            if (tr == null) {
                throw new UnknownTaskException();
            }
            try {
                tr.restart("User requested task to restart", false);
            } catch (TaskRunner.TaskNotRunningException e) {
                throw new AllocStateException(e.getMessage());
            }
            return;
        }
        if (r.record().terminal()) {
            throw new AllocStateException("restart of an alloc that should not run");
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
                        // a restart of the running tasks skips the others
                    }
                    return null;
                });
            }
        }
    }

    /** Signals one task, or every running task when {@code task} is empty. */
    public void signal(String id, String task, String signal) throws UnknownAllocException, UnknownTaskException,
            AllocStateException, InvalidLifecycleRequestException {
        AllocRunner r = runner(id);
        if (signal == null || signal.isEmpty()) {
            throw new InvalidLifecycleRequestException("Signal must be set");
        }
        if (Signals.lookup(signal).isEmpty()) {
            // Checked before any task is chosen: a bad name must leave no Signaling event and fail even with no running task.
            throw new InvalidLifecycleRequestException("unknown signal \"" + signal + "\"");
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
                throw new AllocStateException(e.getMessage());
            } catch (DriverException | IllegalArgumentException e) {
                throw new InvalidLifecycleRequestException(e.getMessage());
            }
        }
    }

    /** Destroys an allocation (idempotent). The future completes once its tasks are dead and its state is gone. */
    public CompletableFuture<Void> destroy(String id) throws UnknownAllocException {
        if (!runners.contains(id) && store.isDeleted(id)) {
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
        java.util.Set<String> destroying = store.destroying();
        Map<String, AllocDocument> documents = store.documents();
        for (AllocRecord rec : store.allocs()) {
            try {
                AllocationSpec spec = rec.spec();
                changes.restored(spec.id(), spec.namespace(), documents.get(spec.id()));
                if (destroying.contains(spec.id())) {
                    // the previous agent stopped before this destroy finished: finish it, never run the alloc again
                    AllocRunner runner = new AllocRunner(runnerContext, rec, true);
                    runners.add(runner);
                    runner.destroy();
                    log.info("finishing the destroy of an allocation the previous agent did not finish: alloc={}", spec.id());
                    continue;
                }
                admission.reclaim(spec);
                AllocRunner runner = new AllocRunner(runnerContext, rec, true);
                runners.add(runner);
                runner.start();
                log.info("restored allocation: alloc={} status={}", spec.id(), rec.clientStatus());
            } catch (RuntimeException e) {
                log.error("cannot restore allocation: alloc={}", rec.id(), e);
            }
        }
    }

    /** Agent shutdown: ends every runner thread promptly; tasks keep running. */
    public void shutdown(Duration wait) {
        runners.shutdown(wait);
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
        for (AllocRunner r : runners.all()) {
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
        return r.runDone().isDone() && r.record().terminal();
    }

    /** Number of allocs this node knows (live and terminal). */
    public int allocCount() {
        return runners.size();
    }
}
