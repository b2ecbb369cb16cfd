package dev.berth.stats;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.management.UnixOperatingSystemMXBean;

/**
 * How many descriptors the kept-open {@link KernelFile}s of the whole agent may hold: the process's descriptor limit
 * less an eighth of it (at least 1,024: sockets, the state database, the JVM's own, the host-stats files) and less
 * {@value #OWN_PER_TASK} per sampled task (each task also holds descriptors of its own: log FIFOs, its pidfd, the
 * shim's pipe). A file over budget is opened and closed per read instead of being kept open. With a hard limit of
 * 524,288 that never binds; with 20,000 it holds all nine v1 files of up to ~1,000 tasks and none from ~2,200.
 *
 * <p>One instance per agent, shared by every kernel file; thread-safe.
 */
public final class DescriptorBudget {

    /** Descriptors a sampled task is assumed to hold besides its kernel files. */
    static final int OWN_PER_TASK = 8;

    private final long limit;
    private final AtomicInteger held = new AtomicInteger();
    private volatile int sampledTasks;

    /** @param limit the process's descriptor limit */
    DescriptorBudget(long limit) {
        this.limit = limit;
    }

    /** The budget under this process's own descriptor limit ({@code RLIMIT_NOFILE}). */
    public static DescriptorBudget ofProcessLimit() {
        long limit = ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix
                ? Math.max(0, unix.getMaxFileDescriptorCount()) : 0;
        return new DescriptorBudget(limit);
    }

    /**
     * A budget that never binds, for the agent's own few always-open files (the host-stats {@code /proc} files), which
     * the reserve of the process budget covers.
     */
    static DescriptorBudget ofReserve() {
        return new DescriptorBudget(Long.MAX_VALUE);
    }

    /** Takes one descriptor from the budget; false (nothing taken) when none is left. */
    boolean tryHold() {
        if (held.incrementAndGet() <= allowed()) {
            return true;
        }
        held.decrementAndGet();
        return false;
    }

    /** Gives back a descriptor taken with {@link #tryHold()}. */
    void release() {
        held.decrementAndGet();
    }

    /** Whether the files hold more than is allowed now (tasks arrived since they were opened). */
    boolean overdrawn() {
        return held.get() > allowed();
    }

    /** How many descriptors kernel files hold now. */
    int held() {
        return held.get();
    }

    /** How many descriptors kernel files may hold now. */
    long allowed() {
        return limit - Math.max(1024, limit / 8) - (long) OWN_PER_TASK * sampledTasks;
    }

    /** The number of tasks being sampled (the task stats collector tells at every registration and removal). */
    void sampledTasks(int count) {
        sampledTasks = count;
    }
}
