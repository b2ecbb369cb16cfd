package dev.berth.host.cgroup;

/**
 * Resource limits written into a task cgroup. Zero means "not set" for every field.
 *
 * @param memoryBytes    the task's memory (Nomad {@code memory}): the hard limit, or the soft limit when
 *                       {@code memoryMaxBytes} is set
 * @param memoryMaxBytes the hard limit (Nomad {@code memory_max}) when oversubscription is used
 * @param cpuShares      relative CPU weight in MHz (Nomad {@code cpu}); v1 {@code cpu.shares}, v2 converted to {@code cpu.weight}
 * @param pidsMax        the most processes/threads the task may have
 * @param cpuQuotaUs     CFS quota: the CPU time the task may use per period, in microseconds (exec's
 *                       {@code cpu_hard_limit}); 0 = no ceiling
 * @param cpuPeriodUs    the CFS period of that quota in microseconds; 0 when there is no quota
 * @param swapBytes      the swap the task may use beyond its hard memory limit ({@link SwapBudget}); 0 = none, as Nomad
 */
public record CgroupLimits(long memoryBytes, long memoryMaxBytes, long cpuShares, long pidsMax, long cpuQuotaUs, long cpuPeriodUs,
                           long swapBytes) {

    public CgroupLimits {
        if (memoryBytes < 0 || memoryMaxBytes < 0 || cpuShares < 0 || pidsMax < 0 || cpuQuotaUs < 0 || cpuPeriodUs < 0 || swapBytes < 0) {
            throw new IllegalArgumentException("cgroup limits must not be negative, were " + memoryBytes + "/" + memoryMaxBytes
                    + "/" + cpuShares + "/" + pidsMax + "/" + cpuQuotaUs + "/" + cpuPeriodUs + "/" + swapBytes);
        }
        if ((cpuQuotaUs > 0) != (cpuPeriodUs > 0)) {
            throw new IllegalArgumentException("a CPU quota needs its period, were " + cpuQuotaUs + "/" + cpuPeriodUs);
        }
    }

    /** Limits without swap. */
    public CgroupLimits(long memoryBytes, long memoryMaxBytes, long cpuShares, long pidsMax, long cpuQuotaUs, long cpuPeriodUs) {
        this(memoryBytes, memoryMaxBytes, cpuShares, pidsMax, cpuQuotaUs, cpuPeriodUs, 0);
    }

    /** Limits without a CPU ceiling and without swap. */
    public CgroupLimits(long memoryBytes, long memoryMaxBytes, long cpuShares, long pidsMax) {
        this(memoryBytes, memoryMaxBytes, cpuShares, pidsMax, 0, 0);
    }

    public static CgroupLimits none() {
        return new CgroupLimits(0, 0, 0, 0);
    }

    /**
     * The CFS quota that holds a task to {@code cpuMhz} on a host whose cores run at {@code mhzPerCore}: the share of
     * one core's time per period ({@code period × cpuMhz / mhzPerCore}, at least the kernel's 1000 µs minimum), so
     * 500 MHz on 2,000 MHz cores is a quarter of a core and 4,000 MHz two full cores.
     */
    public static long cpuQuotaUs(long cpuMhz, double mhzPerCore, long periodUs) {
        if (cpuMhz <= 0 || mhzPerCore <= 0) {
            throw new IllegalArgumentException("a CPU quota needs a task CPU and the host's MHz per core, were " + cpuMhz + "/" + mhzPerCore);
        }
        return Math.max(1_000, Math.round(periodUs * (cpuMhz / mhzPerCore)));
    }

    /** The enforced memory ceiling: {@code memory_max} when set, else {@code memory}; 0 when unlimited. */
    public long hardMemoryLimit() {
        return memoryMaxBytes > 0 ? Math.max(memoryMaxBytes, memoryBytes) : memoryBytes;
    }

    /** The soft limit/reservation: {@code memory} when a larger {@code memory_max} is the hard limit, else 0. */
    public long softMemoryLimit() {
        return memoryMaxBytes > memoryBytes && memoryBytes > 0 ? memoryBytes : 0;
    }

    /** The share of the way from the reservation to the hard limit at which v2 starts throttling ({@code memory.high}). */
    public static final double HIGH_FACTOR = 0.9;
    private static final long PAGE = 4096;

    /**
     * v2's {@code memory.high}, where the kernel throttles and reclaims before the hard limit: the reservation plus
     * {@link #HIGH_FACTOR} of the distance to the hard limit, rounded down to a 4 KiB page ({@code memory +
     * 0.9 × (memory_max − memory)}, Kubernetes' Memory QoS formula with its throttling factor); 0 (not set) unless
     * {@code memory_max} is above {@code memory}.
     */
    public long highMemoryLimit() {
        long soft = softMemoryLimit();
        if (soft == 0) {
            return 0;
        }
        long high = soft + (long) (HIGH_FACTOR * (hardMemoryLimit() - soft));
        return Math.max(soft, high / PAGE * PAGE);
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
