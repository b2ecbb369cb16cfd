package dev.berth.alloc.task;

import java.time.Duration;

/** Test access to the runner's stop backoff. */
public final class TaskRunnerBackoff {

    private TaskRunnerBackoff() {
    }

    public static Duration of(int attempt) {
        return TaskRunner.stopBackoff(attempt);
    }
}
