package dev.berth.alloc.task;

import java.time.Duration;

/** Test access, from other packages, to the stop backoff of {@link TaskStopper}. */
public final class TaskStopperBackoff {

    private TaskStopperBackoff() {
    }

    public static Duration of(int attempt) {
        return TaskStopper.backoff(attempt);
    }
}
