package dev.berth.variables;

import java.time.Duration;
import java.util.Objects;

/**
 * A variable's lock as Nomad keeps it: the holder's {@code id} (handed out on acquire; the proof of holding it), the
 * {@code ttl} within which the holder must renew, and the {@code lockDelay} the lock stays unavailable after it lapsed.
 */
public record VariableLock(String id, Duration ttl, Duration lockDelay) {

    public VariableLock {
        Objects.requireNonNull(id, "'id' must not be null");
        Objects.requireNonNull(ttl, "'ttl' must not be null");
        Objects.requireNonNull(lockDelay, "'lockDelay' must not be null");
    }
}
