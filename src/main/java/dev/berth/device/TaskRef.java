package dev.berth.device;

import java.util.Objects;

/** Which task holds devices: the allocation, its job (for metric labels) and the task's name. */
public record TaskRef(String allocId, String job, String task) {

    public TaskRef {
        Objects.requireNonNull(allocId, "'allocId' must not be null");
        Objects.requireNonNull(task, "'task' must not be null");
        job = job == null ? "" : job;
    }
}
