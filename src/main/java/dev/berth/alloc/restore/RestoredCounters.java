package dev.berth.alloc.restore;

import dev.berth.alloc.task.RestartTracker;
import dev.berth.alloc.task.RestartTracking;

/** Continues a task's restart tracker from its persisted counters after an agent restart (issue 7). */
public final class RestoredCounters {

    private RestoredCounters() {
    }

    /** {@code tracker} with {@code restored} applied; unchanged when nothing was persisted. */
    public static RestartTracker apply(RestartTracker tracker, RestartTracking.Counters restored) {
        return restored == null ? tracker : tracker.restore(restored.count(), restored.intervalStart());
    }
}
