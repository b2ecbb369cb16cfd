package dev.berth.state;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether this host has a processor to spare for work that only pays when it runs beside the start rather than
 * instead of it ({@link FlywayRehearsal}). The start itself keeps about one and a half processors busy (its main
 * thread, the JIT compiler); a second thread of start-up work pays only when the rest of the host leaves it that much
 * and more. What the rest of the host used is measured from two samples of the kernel's counters taken early in the
 * start ({@link Sample}: all processors' busy time from {@code /proc/stat} less this process's own from
 * {@code /proc/self/stat}); without them the one-minute load average stands in.
 *
 * @param processors the processors this JVM may use
 * @param free       the host's processors that the rest of the host left idle between the samples; negative if unknown
 * @param load       the one-minute load average; negative if unknown
 */
record CpuHeadroom(int processors, double free, double load) {

    /** What the start and a rehearsal beside it use: the processors left by the rest of the host must be this many. */
    static final double NEEDED = 1.75;

    /** From a sample taken earlier in the start (empty: none) to now. */
    static CpuHeadroom since(Optional<Sample> first) {
        Optional<Sample> now = Sample.take();
        double free = first.isPresent() && now.isPresent() ? now.get().freeSince(first.get()) : -1;
        return new CpuHeadroom(Runtime.getRuntime().availableProcessors(), free,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    boolean spare() {
        if (processors < 2) {
            return false;
        }
        if (free >= 0) {
            return free >= NEEDED;
        }
        return load >= 0 && load < processors - 1;
    }

    /**
     * The kernel's processor counters at one moment, in clock ticks: all processors' busy and total time since boot,
     * this process's own processor time, and the host's processors.
     */
    record Sample(long busy, long total, long own, int cpus) {

        /** Too few ticks between two samples to tell anything (100 Hz: 50 ms of two processors). */
        static final long MIN_TICKS = 10;

        static Optional<Sample> take() {
            return take(Path.of("/proc/stat"), Path.of("/proc/self/stat"));
        }

        static Optional<Sample> take(Path stat, Path self) {
            try {
                java.util.List<String> lines = Files.readAllLines(stat);
                String[] f = lines.getFirst().trim().split("\\s+"); // cpu user nice system idle iowait irq softirq steal
                int cpus = (int) lines.stream().filter(line -> line.startsWith("cpu") && !line.startsWith("cpu ")).count();
                if (!"cpu".equals(f[0]) || f.length < 9) {
                    return Optional.empty();
                }
                long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
                long busy = Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6])
                        + Long.parseLong(f[7]) + Long.parseLong(f[8]);
                String process = Files.readString(self);
                String[] p = process.substring(process.lastIndexOf(')') + 2).trim().split(" ");
                long own = Long.parseLong(p[11]) + Long.parseLong(p[12]); // utime, stime (fields 14 and 15)
                return Optional.of(new Sample(busy, busy + idle, own, Math.max(1, cpus)));
            } catch (IOException | RuntimeException e) {
                return Optional.empty(); // not Linux, or counters hidden: the load average decides
            }
        }

        /**
         * The host's processors that the rest of the host (all but this process) left idle on average since
         * {@code earlier}; negative if too little time passed to tell.
         */
        double freeSince(Sample earlier) {
            long total = this.total - earlier.total;
            if (total < MIN_TICKS) {
                return -1;
            }
            long others = Math.max(0, (busy - earlier.busy) - (own - earlier.own));
            return Math.max(0, cpus - (double) others / total * cpus);
        }
    }
}
