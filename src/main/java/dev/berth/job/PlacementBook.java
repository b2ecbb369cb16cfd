package dev.berth.job;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import tools.jackson.databind.json.JsonMapper;

/**
 * The scheduler's bookkeeping: every {@link Placement} it made, kept in memory and in the {@link JobStore} (read back
 * at start-up), with the link from a replaced allocation to the one that replaced it (Nomad's {@code NextAllocation}).
 * Thread-safe: each write replaces one placement.
 */
final class PlacementBook {

    private final JobStore store;
    private final JsonMapper json = JsonMapper.builder().build();
    private final Map<String, Placement> placements = new ConcurrentHashMap<>();
    /** Replaced allocation ID → the ID of the allocation that replaced it. */
    private final Map<String, String> replacements = new ConcurrentHashMap<>();

    PlacementBook(JobStore store) {
        this.store = store;
        for (JobStore.Document d : store.placements()) {
            Placement p = json.readValue(d.json(), Placement.class);
            placements.put(p.allocId(), p);
            linkReplacement(p);
        }
    }

    /** The job's placements, oldest first. */
    List<Placement> ofJob(String namespace, String jobId) {
        return placements.values().stream().filter(p -> p.namespace().equals(namespace) && p.jobId().equals(jobId))
                .sorted(Comparator.comparingLong(Placement::createIndex)).toList();
    }

    Optional<Placement> get(String allocId) {
        return Optional.ofNullable(placements.get(allocId));
    }

    /** The placement as stored now ({@code p} itself when it was not stored). */
    Placement current(Placement p) {
        return placements.getOrDefault(p.allocId(), p);
    }

    Optional<String> replacementOf(String allocId) {
        return Optional.ofNullable(replacements.get(allocId));
    }

    List<Placement> all() {
        return new ArrayList<>(placements.values());
    }

    void save(Placement p) {
        placements.put(p.allocId(), p);
        linkReplacement(p);
        store.putPlacement(new JobStore.Document(p.allocId(), p.namespace(), p.jobId(), json.writeValueAsString(p)));
    }

    void remove(Placement p) {
        placements.remove(p.allocId());
        if (p.previousAlloc() != null) {
            replacements.remove(p.previousAlloc(), p.allocId());
        }
        store.deletePlacement(p.allocId());
    }

    private void linkReplacement(Placement p) {
        if (p.previousAlloc() != null) {
            replacements.put(p.previousAlloc(), p.allocId());
        }
    }
}
