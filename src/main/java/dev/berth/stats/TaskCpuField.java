package dev.berth.stats;

/** A CPU figure a reader can measure; the Nomad display name is what goes into {@code Measured}. */
public enum TaskCpuField {
    SYSTEM_MODE("System Mode"),
    USER_MODE("User Mode"),
    THROTTLED_PERIODS("Throttled Periods"),
    THROTTLED_TIME("Throttled Time"),
    /** Total CPU time, from which {@code Percent} and {@code TotalTicks} are computed. */
    PERCENT("Percent");

    private final String nomadName;

    TaskCpuField(String nomadName) {
        this.nomadName = nomadName;
    }

    public String nomadName() {
        return nomadName;
    }
}
