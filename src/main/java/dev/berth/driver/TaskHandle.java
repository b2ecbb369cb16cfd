package dev.berth.driver;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * What a driver needs to find a running task again, also after an agent restart. It is persisted
 * right after {@link TaskDriver#start} returns. Never trust a bare PID: drivers that run processes store
 * the PID together with the process start time (and the cgroup when there is one).
 *
 * @param driver      the driver's name
 * @param taskId      {@link TaskConfig#id()}
 * @param startedAt   when the driver started the task
 * @param driverState driver-private, string-valued state (pid, start ticks, cgroup path, container id, …)
 */
public record TaskHandle(String driver, String taskId, Instant startedAt, Map<String, String> driverState) {

    public TaskHandle {
        Objects.requireNonNull(driver, "'driver' must not be null");
        Objects.requireNonNull(taskId, "'taskId' must not be null");
        driverState = driverState == null ? Map.of() : Map.copyOf(driverState);
    }
}
