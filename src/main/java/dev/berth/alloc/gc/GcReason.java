package dev.berth.alloc.gc;

/** Why an allocation was garbage collected (the {@code reason} label of the destroyed counter). */
public enum GcReason {
    /** More allocations than {@code berth.gc.max-allocs}. */
    MAX_ALLOCS("max_allocs"),
    /** Disk usage at or above {@code berth.gc.disk-usage-threshold}. */
    DISK("disk_usage"),
    /** Inode usage at or above {@code berth.gc.inode-usage-threshold}. */
    INODES("inode_usage"),
    /** {@code POST /v1/client/allocation/:id/gc} or {@code POST /v1/client/gc}. */
    FORCED("forced");

    private final String label;

    GcReason(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
