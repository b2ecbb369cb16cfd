package dev.berth.driver.docker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads a container's stats straight from its cgroup files (a few µs each) instead of the engine's stats call, which
 * blocks 1–2 s per container for a sample cycle. v1 reads the memory, cpuacct, cpu and pids hierarchies; v2 the
 * unified directory. Missing files read as 0 (a controller may be absent), a missing cgroup is an error.
 */
public final class CgroupStatsReader {

    /** USER_HZ: cpuacct.stat counts in 1/100 s ticks. */
    private static final long NS_PER_TICK = 10_000_000L;

    private final Path root;

    public CgroupStatsReader(Path root) {
        this.root = root;
    }

    public ContainerStats read(ContainerCgroup cgroup) throws IOException {
        return cgroup.version() == 1 ? readV1(cgroup) : readV2(cgroup);
    }

    private ContainerStats readV1(ContainerCgroup cgroup) throws IOException {
        Path memory = cgroup.dir(root, "memory");
        if (!Files.isDirectory(memory)) {
            throw new NoSuchFileException(memory.toString(), null, "cgroup is gone");
        }
        Map<String, Long> memStat = keyed(memory.resolve("memory.stat"));
        long usage = single(memory.resolve("memory.usage_in_bytes"));
        long inactiveFile = memStat.getOrDefault("total_inactive_file", 0L);
        Path cpuacct = cgroup.dir(root, "cpuacct");
        Map<String, Long> cpuacctStat = keyed(cpuacct.resolve("cpuacct.stat"));
        Map<String, Long> cpuStat = keyed(cgroup.dir(root, "cpu").resolve("cpu.stat"));
        return new ContainerStats(
                memStat.getOrDefault("total_rss", memStat.getOrDefault("rss", 0L)),
                memStat.getOrDefault("total_cache", memStat.getOrDefault("cache", 0L)),
                usage,
                single(memory.resolve("memory.max_usage_in_bytes")),
                Math.max(0, usage - inactiveFile),
                single(cpuacct.resolve("cpuacct.usage")),
                cpuacctStat.getOrDefault("user", 0L) * NS_PER_TICK,
                cpuacctStat.getOrDefault("system", 0L) * NS_PER_TICK,
                cpuStat.getOrDefault("nr_throttled", 0L),
                cpuStat.getOrDefault("throttled_time", 0L),
                single(cgroup.dir(root, "pids").resolve("pids.current")));
    }

    private ContainerStats readV2(ContainerCgroup cgroup) throws IOException {
        Path dir = cgroup.dir(root, "");
        if (!Files.isDirectory(dir)) {
            throw new NoSuchFileException(dir.toString(), null, "cgroup is gone");
        }
        Map<String, Long> memStat = keyed(dir.resolve("memory.stat"));
        long usage = single(dir.resolve("memory.current"));
        Map<String, Long> cpuStat = keyed(dir.resolve("cpu.stat"));
        return new ContainerStats(
                memStat.getOrDefault("anon", 0L),
                memStat.getOrDefault("file", 0L),
                usage,
                single(dir.resolve("memory.peak")),
                Math.max(0, usage - memStat.getOrDefault("inactive_file", 0L)),
                cpuStat.getOrDefault("usage_usec", 0L) * 1000,
                cpuStat.getOrDefault("user_usec", 0L) * 1000,
                cpuStat.getOrDefault("system_usec", 0L) * 1000,
                cpuStat.getOrDefault("nr_throttled", 0L),
                cpuStat.getOrDefault("throttled_usec", 0L) * 1000,
                single(dir.resolve("pids.current")));
    }

    private static long single(Path file) throws IOException {
        try {
            String text = Files.readString(file).trim();
            return text.isEmpty() || text.equals("max") ? 0 : Long.parseLong(text);
        } catch (NoSuchFileException e) {
            return 0;
        }
    }

    private static Map<String, Long> keyed(Path file) throws IOException {
        Map<String, Long> values = new HashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                int space = line.indexOf(' ');
                if (space > 0) {
                    try {
                        values.put(line.substring(0, space), Long.parseLong(line.substring(space + 1).trim()));
                    } catch (NumberFormatException ignored) {
                        // not a counter line
                    }
                }
            }
        } catch (NoSuchFileException e) {
            return values;
        }
        return values;
    }
}
