package dev.berth.alloc.hooks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.berth.stats.TaskStatsTarget;

/**
 * Finds the task a host pid belongs to, among some tasks' {@link TaskStatsTarget}s: first by the pid's cgroup
 * ({@code /proc/<pid>/cgroup}; v2's single {@code 0::/path} line or any v1 controller line) lying in or under a task's
 * cgroup directory, else by walking its parent chain ({@code /proc/<pid>/stat} field 4) up to a task's root process
 * (checked by start time, field 22, so a recycled pid never matches). Pids that are gone or match nothing are absent.
 *
 * <p>One call reads {@code /proc/<pid>/cgroup} once per pid and each ancestor's {@code stat} at most once (memoized).
 */
final class ProcessAttribution {

    private final Path proc;

    /** cgroup directory's last name element → the targets with such a directory (for suffix matching). */
    private final Map<String, List<Map.Entry<Path, TaskStatsTarget>>> byDirName = new HashMap<>();

    /** root pid → its target (tasks without a cgroup, and tasks whose cgroup a pid may have left). */
    private final Map<Long, TaskStatsTarget> byRootPid = new HashMap<>();

    ProcessAttribution(Path proc, Collection<TaskStatsTarget> targets) {
        this.proc = proc;
        for (TaskStatsTarget target : targets) {
            for (Path dir : target.cgroupDirs().values()) {
                if (dir.getFileName() != null) {
                    byDirName.computeIfAbsent(dir.getFileName().toString(), (k) -> new ArrayList<>()).add(Map.entry(dir, target));
                }
            }
            if (target.rootPid() > 0) {
                byRootPid.put(target.rootPid(), target);
            }
        }
    }

    /** pid → owning target, for the pids that belong to one. */
    Map<Long, TaskStatsTarget> owners(Collection<Long> pids) {
        Map<Long, TaskStatsTarget> result = new HashMap<>();
        Map<Long, Object> memo = new HashMap<>();
        for (long pid : pids) {
            TaskStatsTarget owner = byCgroup(pid);
            if (owner == null && !byRootPid.isEmpty()) {
                owner = byTree(pid, memo);
            }
            if (owner != null) {
                result.put(pid, owner);
            }
        }
        return result;
    }

    private TaskStatsTarget byCgroup(long pid) {
        if (byDirName.isEmpty()) {
            return null;
        }
        String content;
        try {
            content = Files.readString(proc.resolve(Long.toString(pid)).resolve("cgroup"), StandardCharsets.US_ASCII);
        }
        catch (IOException | RuntimeException gone) {
            return null;
        }
        for (String line : content.split("\n")) {
            int colon = line.indexOf(':', line.indexOf(':') + 1);
            if (colon < 0) {
                continue;
            }
            String path = line.substring(colon + 1).strip();
            // the pid's cgroup, then its ancestors: a process in a sub-cgroup of the task's still belongs to the task
            for (String candidate = path; candidate.length() > 1; candidate = parent(candidate)) {
                String name = candidate.substring(candidate.lastIndexOf('/') + 1);
                List<Map.Entry<Path, TaskStatsTarget>> dirs = byDirName.get(name);
                if (dirs != null) {
                    for (Map.Entry<Path, TaskStatsTarget> dir : dirs) {
                        if (dir.getKey().toString().endsWith(candidate)) {
                            return dir.getValue();
                        }
                    }
                }
            }
        }
        return null;
    }

    private static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }

    private static final Object NONE = new Object();

    private TaskStatsTarget byTree(long pid, Map<Long, Object> memo) {
        List<Long> walked = new ArrayList<>();
        TaskStatsTarget found = null;
        long current = pid;
        for (int depth = 0; depth < 256 && current > 1; depth++) {
            Object known = memo.get(current);
            if (known != null) {
                found = known == NONE ? null : (TaskStatsTarget) known;
                break;
            }
            walked.add(current);
            long[] stat = stat(current);
            if (stat == null) {
                break;
            }
            TaskStatsTarget root = byRootPid.get(current);
            if (root != null && (root.startTicks() == 0 || root.startTicks() == stat[1])) {
                found = root;
                break;
            }
            current = stat[0];
        }
        Object value = found == null ? NONE : found;
        walked.forEach((p) -> memo.put(p, value));
        return found;
    }

    /** {ppid, start ticks} of a pid, or null when it is gone. */
    private long[] stat(long pid) {
        String line;
        try {
            line = Files.readString(proc.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.US_ASCII);
        }
        catch (IOException | RuntimeException gone) {
            return null;
        }
        int close = line.lastIndexOf(')');
        if (close < 0) {
            return null;
        }
        String[] fields = line.substring(close + 2).split(" ");
        // fields[0] is field 3 (state): ppid is field 4, starttime field 22
        try {
            return new long[] {Long.parseLong(fields[1]), Long.parseLong(fields[19])};
        }
        catch (NumberFormatException | ArrayIndexOutOfBoundsException ex) {
            return null;
        }
    }
}
