package dev.berth.service;

import java.time.Duration;
import java.util.function.Supplier;

import dev.berth.alloc.spec.ServiceCheckSpec.CheckRestartSpec;
import dev.berth.service.probe.CheckProbe;

/**
 * One check ready to arm: where it belongs, its schedule and thresholds (interpolated), and how to build its probe.
 *
 * @param id             Nomad's check ID (a hash of the alloc, group, task and check fields)
 * @param task           the task owning the service; null for a group service
 * @param registrationId the service registration the check belongs to
 * @param mode           {@code healthiness}, or {@code readiness} for {@code OnUpdate: ignore}
 * @param restartTask    the task {@code check_restart} restarts; null when the check restarts nothing
 * @param probe          builds the probe when the check is armed
 */
public record CheckDefinition(String id, String allocId, String group, String task, String service, String check,
                              String registrationId, String type, String mode, Duration interval, Duration timeout,
                              String initialStatus, int successBeforePassing, int failuresBeforeCritical,
                              CheckRestartSpec checkRestart, String restartTask, Supplier<CheckProbe> probe) {

    CheckResult result(String status, int statusCode, String output, long timestamp) {
        return new CheckResult(id, mode, status, statusCode, output, timestamp, group, task == null ? "" : task, service, check);
    }
}
