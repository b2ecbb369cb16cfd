package dev.berth.alloc.restore;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.Predicate;

import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.store.AllocStateStore;
import dev.berth.alloc.store.InMemoryAllocStateStore;
import dev.berth.alloc.task.TaskLocalState;
import dev.berth.alloc.task.TaskState;

/**
 * An injectable crash point for restore tests: a store in front of a real one that, at the first write its
 * predicate matches, "crashes" the agent: that write and every later one are never persisted, and the writing thread stops
 * there (parked until {@link #close}), as if the process had been SIGKILLed at that instant. The delegate then holds exactly
 * what a killed agent would have left on disk.
 */
final class CrashPointStore implements AllocStateStore, AutoCloseable {

    /** One write, as the predicate sees it. {@code value} is the record, task state or local state being written. */
    record Write(String kind, String allocId, String task, Object value) {

        boolean taskState(Predicate<TaskState> p) {
            return "task_state".equals(kind) && p.test((TaskState) value);
        }

        boolean local(Predicate<TaskLocalState> p) {
            return "local".equals(kind) && p.test((TaskLocalState) value);
        }

        boolean alloc(Predicate<AllocRecord> p) {
            return "alloc".equals(kind) && p.test((AllocRecord) value);
        }
    }

    /**
     * Thrown into the parked writers when the test ends, so their threads end without writing anything. An error, not
     * a runtime exception: the runner logs a store's failure and goes on (a store that fails is not a dead agent), and
     * a crashed agent's thread must not go on.
     */
    static final class AgentCrashed extends Error {
        AgentCrashed() {
            super("the agent crashed here (test crash point)");
        }
    }

    final InMemoryAllocStateStore disk = new InMemoryAllocStateStore();
    final CountDownLatch crashed = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private final Predicate<Write> crashPoint;
    private volatile Write crashedAt;

    CrashPointStore(Predicate<Write> crashPoint) {
        this.crashPoint = crashPoint;
    }

    /** The write the agent crashed at (not persisted), or null. */
    Write crashedAt() {
        return crashedAt;
    }

    private boolean write(Write w, Runnable persist) {
        synchronized (this) {
            if (crashedAt == null && crashPoint.test(w)) {
                crashedAt = w;
                crashed.countDown();
            }
        }
        if (crashedAt != null) {
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new AgentCrashed();
        }
        persist.run();
        return true;
    }

    @Override
    public boolean putAlloc(AllocRecord alloc) {
        return write(new Write("alloc", alloc.id(), null, alloc), () -> disk.putAlloc(alloc));
    }

    @Override
    public Optional<AllocRecord> alloc(String allocId) {
        return disk.alloc(allocId);
    }

    @Override
    public List<AllocRecord> allocs() {
        return disk.allocs();
    }

    @Override
    public boolean putTaskState(String allocId, String taskName, TaskState state) {
        return write(new Write("task_state", allocId, taskName, state), () -> disk.putTaskState(allocId, taskName, state));
    }

    @Override
    public Map<String, TaskState> taskStates(String allocId) {
        return disk.taskStates(allocId);
    }

    @Override
    public boolean putTaskLocalState(String allocId, String taskName, TaskLocalState state) {
        return write(new Write("local", allocId, taskName, state), () -> disk.putTaskLocalState(allocId, taskName, state));
    }

    @Override
    public Optional<TaskLocalState> taskLocalState(String allocId, String taskName) {
        return disk.taskLocalState(allocId, taskName);
    }

    @Override
    public void deleteAlloc(String allocId) {
        write(new Write("delete", allocId, null, null), () -> disk.deleteAlloc(allocId));
    }

    @Override
    public boolean markDestroying(String allocId) {
        boolean[] out = new boolean[1];
        write(new Write("destroying", allocId, null, null), () -> out[0] = disk.markDestroying(allocId));
        return out[0];
    }

    @Override
    public java.util.Set<String> destroying() {
        return disk.destroying();
    }

    @Override
    public boolean putDocument(String allocId, dev.berth.alloc.store.AllocDocument document) {
        boolean[] out = new boolean[1];
        write(new Write("document", allocId, null, null), () -> out[0] = disk.putDocument(allocId, document));
        return out[0];
    }

    @Override
    public java.util.Map<String, dev.berth.alloc.store.AllocDocument> documents() {
        return disk.documents();
    }

    @Override
    public boolean isDeleted(String allocId) {
        return disk.isDeleted(allocId);
    }

    /** Ends the parked writers (each gets {@link AgentCrashed}); nothing more is persisted. */
    @Override
    public void close() {
        synchronized (this) {
            if (crashedAt == null) {
                crashedAt = new Write("closed", null, null, null);
            }
        }
        released.countDown();
    }
}
