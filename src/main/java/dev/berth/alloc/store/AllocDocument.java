package dev.berth.alloc.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An allocation as it was last submitted, whole, with the indexes the node gave it: what {@code /v1/allocation/:id}
 * returns around the node's own fields. {@code submitted} is the JSON object exactly as the client sent it (plain maps,
 * lists, strings, numbers, booleans; unknown fields included), so a newer Nomad's fields survive the round trip.
 *
 * <p>Indexes are the node's ({@code dev.berth.events.NodeIndex}), as a Nomad server's state store overwrites them on
 * every upsert: {@code createIndex} when the allocation was created, {@code allocModifyIndex} when the last accepted
 * submission (create, update, stop) was applied. The {@code AllocModifyIndex} a client <em>submits</em> keeps its
 * latest-wins meaning against the previous submission (it stays in the spec) and is returned as sent, so a
 * read-modify-write by the submitter stays in its own numbering; only a submission without one gets the node's.
 *
 * @param submitted        the last accepted submission's JSON object (null when unknown: an allocation stored before
 *                         documents existed)
 * @param createIndex      node index of the creation
 * @param allocModifyIndex node index of the last accepted submission
 * @param createTimeNs     creation time, Unix nanoseconds
 */
public record AllocDocument(Map<String, Object> submitted, long createIndex, long allocModifyIndex, long createTimeNs) {

    public AllocDocument {
        submitted = submitted == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(submitted));
    }

    /** The same allocation after a later accepted submission. */
    public AllocDocument resubmitted(Map<String, Object> newSubmitted, long index) {
        return new AllocDocument(newSubmitted == null ? submitted : newSubmitted, createIndex, index, createTimeNs);
    }
}
