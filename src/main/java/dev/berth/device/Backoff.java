package dev.berth.device;

import java.time.Duration;

/** Nomad's device-plugin backoff: {@code 5s · 2^attempt}, capped at 30 minutes. */
public final class Backoff {

    static final Duration BASE = Duration.ofSeconds(5);

    static final Duration MAX = Duration.ofMinutes(30);

    private Backoff() {
    }

    /** The wait before retry number {@code attempt} (0-based). */
    public static Duration delay(int attempt) {
        if (attempt >= 20) {
            return MAX;
        }
        Duration delay = BASE.multipliedBy(1L << attempt);
        return delay.compareTo(MAX) > 0 ? MAX : delay;
    }
}
