package dev.berth.service;

/**
 * A check's status with Consul's thresholds, which Berth applies to its native checks too: the status turns
 * {@code success} after {@code SuccessBeforePassing} consecutive passing probes (0 or 1: at once) and {@code failure}
 * after {@code FailuresBeforeCritical} consecutive failing ones (0 or 1: at once); in between it keeps the previous status.
 * It starts as {@code InitialStatus} ({@code passing} → success, {@code warning}/{@code critical} → failure, empty →
 * pending). Not thread-safe: one check's results arrive one after another.
 */
final class CheckStatus {

    private final int successBeforePassing;
    private final int failuresBeforeCritical;
    private String status;
    private int successes;
    private int failures;

    CheckStatus(String initialStatus, int successBeforePassing, int failuresBeforeCritical) {
        this.successBeforePassing = Math.max(1, successBeforePassing);
        this.failuresBeforeCritical = Math.max(1, failuresBeforeCritical);
        this.status = switch (initialStatus == null ? "" : initialStatus) {
            case "passing" -> CheckResult.SUCCESS;
            case "warning", "critical" -> CheckResult.FAILURE;
            default -> CheckResult.PENDING;
        };
    }

    /** Counts one probe and returns the status after it. */
    String record(boolean passed) {
        if (passed) {
            failures = 0;
            if (++successes >= successBeforePassing) {
                status = CheckResult.SUCCESS;
            }
        } else {
            successes = 0;
            if (++failures >= failuresBeforeCritical) {
                status = CheckResult.FAILURE;
            }
        }
        return status;
    }

    String status() {
        return status;
    }
}
