package dev.berth.events;

import java.util.Objects;

/**
 * One change of the node's state, in the shape of a Nomad event: {@code index} is the modify index the change was
 * written with, {@code type} Nomad's event type (for example {@code AllocationUpdated}, {@code JobRegistered}),
 * {@code key} the object's ID and {@code payload} the object as it was after the change (its JSON rendering is the
 * API's business; the feed never looks inside it).
 */
public record Change(long index, Topic topic, String type, String key, String namespace, Object payload) {

    public Change {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(key, "key");
        namespace = namespace == null ? "default" : namespace;
        if (index < 1) {
            throw new IllegalArgumentException("index must be positive: " + index);
        }
    }

    /** Whether this change concerns {@code topic}, and the object {@code key} unless that is null or {@code "*"}. */
    public boolean matches(Topic topic, String key) {
        return this.topic == topic && (key == null || "*".equals(key) || this.key.equals(key));
    }
}
