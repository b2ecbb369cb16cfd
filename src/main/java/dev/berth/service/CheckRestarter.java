package dev.berth.service;

import java.time.Duration;
import java.time.Instant;

/**
 * Nomad's {@code check_restart} watcher for one check: results during {@code Grace} (from arming) are ignored; the first
 * unhealthy result ({@code failure} or {@code pending}) starts the clock, a healthy one stops it; when the check has been
 * unhealthy for {@code Interval × (Limit − 1)} the task is restarted (so with {@code Limit = 1} at the first unhealthy
 * result). After a restart the grace period starts again. Not thread-safe: fed one result at a time.
 */
final class CheckRestarter {

    private final Duration grace;
    private final Duration timeLimit;
    private Instant graceUntil;
    private Instant unhealthySince;

    CheckRestarter(Duration grace, Duration interval, int limit, Instant armedAt) {
        this.grace = grace;
        this.timeLimit = interval.multipliedBy(Math.max(0, limit - 1));
        this.graceUntil = armedAt.plus(grace);
    }

    /** Feeds one result; true when the task must be restarted now. */
    boolean apply(Instant now, String status) {
        if (CheckResult.SUCCESS.equals(status)) {
            unhealthySince = null;
            return false;
        }
        if (now.isBefore(graceUntil)) {
            return false;
        }
        if (unhealthySince == null) {
            unhealthySince = now;
        }
        if (!now.isBefore(unhealthySince.plus(timeLimit))) {
            unhealthySince = null;
            graceUntil = now.plus(grace);
            return true;
        }
        return false;
    }
}
