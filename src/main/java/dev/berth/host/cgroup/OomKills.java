package dev.berth.host.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;


/**
 * How many times the kernel OOM killer killed a process in a task's cgroup: {@code oom_kill} in v1
 * {@code memory.oom_control} (kernel 4.13+) or v2 {@code memory.events}. A task whose cgroup counted one is reported
 * OOM-killed. The kernel counts a kill in the victim's memory cgroup whether the cgroup's own limit or the host ran out
 * of memory, so raw_exec's unlimited cgroup counts host OOM kills of its tasks too.
 */
public final class OomKills {

    private OomKills() {
    }

    /** The cgroup's OOM-kill count; 0 when it has no memory controller or the file cannot be read. */
    public static long count(TaskCgroup cgroup) {
        Path memory = cgroup.dir("memory");
        if (memory == null) {
            return 0;
        }
        Path file = memory.resolve(cgroup.version() == CgroupVersion.V2 ? "memory.events" : "memory.oom_control");
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            return 0;
        }
    }

    public static long parse(String text) {
        return text.lines()
                .filter(line -> line.startsWith("oom_kill "))
                .mapToLong(line -> Long.parseLong(line.substring("oom_kill ".length()).trim()))
                .findFirst().orElse(0);
    }
}
