package dev.berth.alloc.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.dao.PessimisticLockingFailureException;

import dev.berth.alloc.task.TaskLocalState;
import dev.berth.alloc.task.TaskState;

/** {@link AllocStateStore} in memory, for runner tests (Nomad's MemDB). One lock; values are immutable records. */
public final class InMemoryAllocStateStore implements AllocStateStore {

    // all guarded by this
    private final Map<String, AllocRecord> allocs = new LinkedHashMap<>();
    private final Map<String, Map<String, TaskState>> taskStates = new HashMap<>();
    private final Map<String, Map<String, TaskLocalState>> localStates = new HashMap<>();
    private final Set<String> deleted = new java.util.HashSet<>();
    private final Set<String> destroying = new java.util.HashSet<>();
    private final Map<String, AllocDocument> documents = new HashMap<>();

    @Override
    public synchronized boolean putDocument(String allocId, AllocDocument document) {
        if (!allocs.containsKey(allocId)) {
            return false;
        }
        documents.put(allocId, document);
        return true;
    }

    @Override
    public synchronized Map<String, AllocDocument> documents() {
        return Map.copyOf(documents);
    }

    @Override
    public synchronized boolean putAlloc(AllocRecord alloc) {
        if (deleted.contains(alloc.id())) {
            return false;
        }
        allocs.put(alloc.id(), alloc);
        return true;
    }

    @Override
    public synchronized Optional<AllocRecord> alloc(String allocId) {
        return Optional.ofNullable(allocs.get(allocId));
    }

    @Override
    public synchronized List<AllocRecord> allocs() {
        return new ArrayList<>(allocs.values());
    }

    /** Task writes (state or local state) still to fail, as a store that keeps losing conflicts does. */
    public final AtomicInteger failingTaskWrites = new AtomicInteger();

    private void failIfScripted() {
        if (failingTaskWrites.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new PessimisticLockingFailureException("scripted: the store keeps losing a conflict");
        }
    }

    @Override
    public synchronized boolean putTaskState(String allocId, String taskName, TaskState state) {
        failIfScripted();
        if (!allocs.containsKey(allocId)) {
            return false;
        }
        taskStates.computeIfAbsent(allocId, k -> new TreeMap<>()).put(taskName, state);
        return true;
    }

    @Override
    public synchronized Map<String, TaskState> taskStates(String allocId) {
        return Map.copyOf(taskStates.getOrDefault(allocId, Map.of()));
    }

    @Override
    public synchronized boolean putTaskLocalState(String allocId, String taskName, TaskLocalState state) {
        failIfScripted();
        if (!allocs.containsKey(allocId)) {
            return false;
        }
        localStates.computeIfAbsent(allocId, k -> new HashMap<>()).put(taskName, state);
        return true;
    }

    @Override
    public synchronized Optional<TaskLocalState> taskLocalState(String allocId, String taskName) {
        return Optional.ofNullable(localStates.getOrDefault(allocId, Map.of()).get(taskName));
    }

    @Override
    public synchronized void deleteAlloc(String allocId) {
        deleted.add(allocId);
        destroying.remove(allocId);
        allocs.remove(allocId);
        taskStates.remove(allocId);
        localStates.remove(allocId);
        documents.remove(allocId);
    }

    @Override
    public synchronized boolean markDestroying(String allocId) {
        if (!allocs.containsKey(allocId)) {
            return false;
        }
        destroying.add(allocId);
        return true;
    }

    @Override
    public synchronized Set<String> destroying() {
        return Set.copyOf(destroying);
    }

    @Override
    public synchronized boolean isDeleted(String allocId) {
        return deleted.contains(allocId);
    }
}
