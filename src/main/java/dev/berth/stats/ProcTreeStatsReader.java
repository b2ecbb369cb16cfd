package dev.berth.stats;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A task without a cgroup: RSS and swap ({@code /proc/<pid>/status}) and CPU times ({@code /proc/<pid>/stat}) summed
 * over the process tree under the task's root pid, with a per-pid entry for each process (Nomad's {@code Pids}).
 *
 * <p>The root is identified by pid <em>and</em> start time (field 22), so a recycled pid reads as "gone". Descendants are
 * found by scanning every process's parent pid (this kernel has no {@code /proc/<pid>/task/<tid>/children}); like
 * Nomad's procstats, the tree is cached for {@link #TREE_TTL} and only the per-pid files are read on every sample.
 */
final class ProcTreeStatsReader implements TaskStatsReader {

    static final Duration TREE_TTL = Duration.ofSeconds(5);

    private static final byte[][] STATUS = CgroupFileBuffer.keys("VmRSS:", "VmSwap:");
    private static final Set<TaskMemoryField> PID_MEMORY = Set.of(TaskMemoryField.RSS, TaskMemoryField.SWAP);
    private static final Set<TaskCpuField> PID_CPU = Set.of(TaskCpuField.PERCENT, TaskCpuField.USER_MODE, TaskCpuField.SYSTEM_MODE);

    /** The sampling thread's buffer, taken at the start of each {@link #read()} (the collector never reads one task twice at once). */
    private CgroupFileBuffer buffer;
    private final long[] values = new long[STATUS.length];
    private final Path proc;
    private final long rootPid;
    private final long startTicks;
    private final Clock clock;
    private final String rootStat;
    // the cached tree: pids, root first, with their file paths built once per scan rather than once per sample
    private long[] tree = new long[0];
    private String[] statPaths = new String[0];
    private String[] statusPaths = new String[0];
    private Instant treeReadAt = Instant.MIN;

    /**
     * @param startTicks the root's start time in clock ticks since boot (field 22 of its stat), or 0 to not check it
     */
    ProcTreeStatsReader(Path proc, long rootPid, long startTicks, Clock clock) {
        this.proc = proc;
        this.rootPid = rootPid;
        this.startTicks = startTicks;
        this.clock = clock;
        this.rootStat = statPath(Long.toString(rootPid));
    }

    @Override
    public TaskRawSample read() throws IOException {
        buffer = CgroupFileBuffer.forThisThread();
        if (!buffer.load(rootStat) || (startTicks > 0 && buffer.fieldLong(buffer.statFieldsStart(), 19) != startTicks)) {
            tree = new long[0];
            return TaskRawSample.NONE;
        }
        boolean rootStatLoaded = true; // the start-time check just read it: reuse it for the root's CPU times
        Instant now = clock.instant();
        if (Duration.between(treeReadAt, now).compareTo(TREE_TTL) >= 0 || tree.length == 0) {
            setTree(scanTree());
            treeReadAt = now;
            rootStatLoaded = false;
        }
        TaskMemoryStats.Builder total = new TaskMemoryStats.Builder();
        long totalUser = 0;
        long totalSystem = 0;
        Map<Long, TaskRawSample.Proc> pids = new LinkedHashMap<>();
        for (int i = 0; i < tree.length; i++) {
            long pid = tree[i];
            if (!(i == 0 && rootStatLoaded) && !buffer.load(statPaths[i])) {
                continue; // exited since the tree was scanned
            }
            int fields = buffer.statFieldsStart();
            long userNs = buffer.fieldLong(fields, 11) * CgroupV1StatsReader.NANOS_PER_USER_HZ_TICK;
            long systemNs = buffer.fieldLong(fields, 12) * CgroupV1StatsReader.NANOS_PER_USER_HZ_TICK;
            if (!buffer.load(statusPaths[i])) {
                continue;
            }
            long found = buffer.scan(STATUS, values);
            // kernel threads have no Vm* lines; they hold no user memory
            long rss = (found & 1) != 0 ? values[0] * 1024 : 0;
            long swap = (found & 2) != 0 ? values[1] * 1024 : 0;
            total.add(TaskMemoryField.RSS, rss).add(TaskMemoryField.SWAP, swap);
            totalUser += userNs;
            totalSystem += systemNs;
            pids.put(pid, new TaskRawSample.Proc(
                    new TaskMemoryStats(rss, 0, swap, 0, 0, 0, 0, 0, 0, PID_MEMORY),
                    new TaskCpuTimes(userNs + systemNs, userNs, systemNs, 0, 0, PID_CPU)));
        }
        if (pids.isEmpty()) {
            return TaskRawSample.NONE;
        }
        return new TaskRawSample(total.build(), new TaskCpuTimes(totalUser + totalSystem, totalUser, totalSystem, 0, 0, PID_CPU), pids);
    }

    /** The root and all its descendants, root first. */
    private List<Long> scanTree() throws IOException {
        Map<Long, List<Long>> children = new HashMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(proc)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (name.isEmpty() || name.charAt(0) < '0' || name.charAt(0) > '9' || !buffer.load(statPath(name))) {
                    continue;
                }
                long ppid = buffer.fieldLong(buffer.statFieldsStart(), 1);
                children.computeIfAbsent(ppid, k -> new ArrayList<>(2)).add(Long.parseLong(name));
            }
        }
        List<Long> result = new ArrayList<>();
        ArrayDeque<Long> queue = new ArrayDeque<>();
        queue.add(rootPid);
        while (!queue.isEmpty()) {
            long pid = queue.poll();
            result.add(pid);
            queue.addAll(children.getOrDefault(pid, List.of()));
        }
        return List.copyOf(result);
    }

    private void setTree(List<Long> pids) {
        tree = new long[pids.size()];
        statPaths = new String[pids.size()];
        statusPaths = new String[pids.size()];
        for (int i = 0; i < tree.length; i++) {
            tree[i] = pids.get(i);
            statPaths[i] = statPath(Long.toString(tree[i]));
            statusPaths[i] = proc.resolve(Long.toString(tree[i])).resolve("status").toString();
        }
    }

    private String statPath(String pid) {
        return proc.resolve(pid).resolve("stat").toString();
    }
}
