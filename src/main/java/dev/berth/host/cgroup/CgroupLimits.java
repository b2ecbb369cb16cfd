package dev.berth.host.cgroup;

/**
 * Resource limits written into a task cgroup. Zero means "not set" for every field.
 *
 * @param memoryBytes    the task's memory (Nomad {@code memory}): the hard limit, or the soft limit when
 *                       {@code memoryMaxBytes} is set
 * @param memoryMaxBytes the hard limit (Nomad {@code memory_max}) when oversubscription is used
 * @param cpuShares      relative CPU weight in MHz (Nomad {@code cpu}); v1 {@code cpu.shares}, v2 converted to {@code cpu.weight}
 * @param pidsMax        the most processes/threads the task may have
 */
public record CgroupLimits(long memoryBytes, long memoryMaxBytes, long cpuShares, long pidsMax) {

    private static final long MIB = 1024L * 1024L;

    public CgroupLimits {
        if (memoryBytes < 0 || memoryMaxBytes < 0 || cpuShares < 0 || pidsMax < 0) {
            throw new IllegalArgumentException("cgroup limits must not be negative, were " + memoryBytes + "/" + memoryMaxBytes
                    + "/" + cpuShares + "/" + pidsMax);
        }
    }

    public static CgroupLimits none() {
        return new CgroupLimits(0, 0, 0, 0);
    }

    /** The enforced memory ceiling: {@code memory_max} when set, else {@code memory}; 0 when unlimited. */
    public long hardMemoryLimit() {
        return memoryMaxBytes > 0 ? Math.max(memoryMaxBytes, memoryBytes) : memoryBytes;
    }

    /** The soft limit/reservation: {@code memory} when a larger {@code memory_max} is the hard limit, else 0. */
    public long softMemoryLimit() {
        return memoryMaxBytes > memoryBytes && memoryBytes > 0 ? memoryBytes : 0;
    }

    /** v1 shares (kernel minimum 2). */
    public long v1Shares() {
        return Math.max(2, cpuShares);
    }

    /** v2 {@code cpu.weight} from shares, runc's conversion {@code 1 + ((shares - 2) * 9999) / 262142}. */
    public long v2Weight() {
        long shares = Math.min(262144, v1Shares());
        return 1 + ((shares - 2) * 9999) / 262142;
    }
}
