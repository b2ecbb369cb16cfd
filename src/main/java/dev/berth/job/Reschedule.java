package dev.berth.job;

import java.time.Duration;
import java.util.List;

import tools.jackson.databind.JsonNode;

/** Nomad's reschedule policy: whether a failed allocation is replaced and after which delay. */
record Reschedule(int attempts, Duration interval, Duration delay, String delayFunction, Duration maxDelay, boolean unlimited) {

    static Reschedule of(JsonNode p) {
        return new Reschedule(p.path("Attempts").asInt(0), Duration.ofNanos(p.path("Interval").asLong(0)),
                Duration.ofNanos(p.path("Delay").asLong(0)), p.path("DelayFunction").asString(""),
                Duration.ofNanos(p.path("MaxDelay").asLong(0)), p.path("Unlimited").asBoolean(false));
    }

    /** Whether another reschedule is allowed given the chain's earlier reschedule times (epoch millis) at {@code nowMs}. */
    boolean allowed(List<Long> earlier, long nowMs) {
        if (unlimited) {
            return true;
        }
        if (attempts <= 0) {
            return false;
        }
        long since = nowMs - interval.toMillis();
        long recent = earlier.stream().filter(t -> interval.isZero() || t > since).count();
        return recent < attempts;
    }

    /** The delay before the next replacement, after {@code n} earlier reschedules. */
    Duration delayAfter(int n) {
        Duration d = switch (delayFunction) {
            case "exponential" -> delay.multipliedBy(1L << Math.min(n, 30));
            case "fibonacci" -> {
                long a = 0;
                long b = 1;
                for (int i = 0; i < n; i++) {
                    long c = a + b;
                    a = b;
                    b = c;
                }
                yield delay.multipliedBy(Math.max(1, b));
            }
            default -> delay;
        };
        return !maxDelay.isZero() && d.compareTo(maxDelay) > 0 ? maxDelay : d;
    }
}
