package dev.berth.host.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How much swap a task's cgroup may use. Off, as Nomad has it, every task gets none. Allowed (the node setting
 * {@code berth.drivers.exec.swap=limited}), a task gets a share of the host's swap proportional to its memory, as
 * Kubernetes' {@code LimitedSwap}: {@code memory / MemTotal × SwapTotal}, or the budget it sets explicitly.
 *
 * @param allowed        whether tasks may swap at all
 * @param memTotalBytes  the host's memory ({@code MemTotal} of {@code /proc/meminfo})
 * @param swapTotalBytes the host's swap ({@code SwapTotal}); 0 on a host without swap
 */
public record SwapBudget(boolean allowed, long memTotalBytes, long swapTotalBytes) {

    /** No swap for any task. */
    public static final SwapBudget OFF = new SwapBudget(false, 0, 0);

    public SwapBudget {
        if (memTotalBytes < 0 || swapTotalBytes < 0) {
            throw new IllegalArgumentException("memory and swap totals must not be negative, were " + memTotalBytes + "/" + swapTotalBytes);
        }
    }

    /** Swap allowed, with the host's totals read from {@code meminfo} (normally {@code /proc/meminfo}). */
    public static SwapBudget limited(Path meminfo) throws IOException {
        return limited(Files.readAllLines(meminfo));
    }

    static SwapBudget limited(List<String> meminfo) {
        return new SwapBudget(true, kib(meminfo, "MemTotal:") * 1024, kib(meminfo, "SwapTotal:") * 1024);
    }

    /**
     * The swap a task may use.
     *
     * @param memoryBytes   the task's memory (Nomad's {@code memory}, its reservation)
     * @param explicitBytes the budget the task set, or a negative number when it set none
     * @return 0 when swap is off; else the explicit budget, or the proportional share
     */
    public long forTask(long memoryBytes, long explicitBytes) {
        if (!allowed) {
            return 0;
        }
        if (explicitBytes >= 0) {
            return explicitBytes;
        }
        if (memTotalBytes == 0 || memoryBytes <= 0) {
            return 0;
        }
        return (long) ((double) memoryBytes / memTotalBytes * swapTotalBytes);
    }

    private static long kib(List<String> meminfo, String key) {
        for (String line : meminfo) {
            if (line.startsWith(key)) {
                String[] parts = line.substring(key.length()).trim().split("\\s+");
                return Long.parseLong(parts[0]);
            }
        }
        return 0;
    }
}
