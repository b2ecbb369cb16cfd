package dev.berth.stats;

/** A memory figure a reader can measure; the Nomad display name is what goes into {@code Measured}. */
public enum TaskMemoryField {
    RSS("RSS"),
    CACHE("Cache"),
    SWAP("Swap"),
    MAPPED_FILE("Mapped File"),
    USAGE("Usage"),
    MAX_USAGE("Max Usage"),
    KERNEL_USAGE("Kernel Usage"),
    KERNEL_MAX_USAGE("Kernel Max Usage"),
    /** usage − inactive_file (cAdvisor's definition); Berth's own field, not part of Nomad's {@code Measured}. */
    WORKING_SET(null);

    private final String nomadName;

    TaskMemoryField(String nomadName) {
        this.nomadName = nomadName;
    }

    /** The exact string Nomad puts in {@code MemoryStats.Measured}, or null for Berth-only fields. */
    public String nomadName() {
        return nomadName;
    }
}
