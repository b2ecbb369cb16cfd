package dev.berth.variables;

import java.time.Duration;

/**
 * The {@code Lock} a request carries: on acquire, the wanted {@code ttl} and {@code lockDelay} (null or zero: Nomad's
 * 15 s defaults) and optionally the holder's own {@code id}; on any other write, the holder's {@code id} as its proof.
 * Every field may be null.
 */
public record LockRequest(String id, Duration ttl, Duration lockDelay) {

    public static final LockRequest NONE = new LockRequest(null, null, null);

    public boolean hasId() {
        return id != null && !id.isEmpty();
    }

    /** Whether it asks for a TTL or delay (which only an acquire may). */
    public boolean definesLock() {
        return ttl != null && !ttl.isZero() || lockDelay != null && !lockDelay.isZero();
    }
}
