package dev.berth.alloc.hooks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.stats.TaskStatsTarget;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Attribution against a procfs tree written in the kernel's formats ({@code /proc/<pid>/cgroup} of cgroup v1 and v2,
 * {@code /proc/<pid>/stat} with a command name holding spaces and parentheses). The agent test does the same against the
 * real {@code /proc} with real task processes.
 */
class ProcessAttributionTest {

    @TempDir
    Path proc;

    private void process(long pid, long ppid, long startTicks, String cgroup) throws IOException {
        Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime
        // priority nice threads itrealvalue starttime ...
        Files.writeString(dir.resolve("stat"), pid + " (python3 (worker) x) S " + ppid + " " + pid + " " + pid
                + " 0 -1 4194304 100 0 0 0 5 1 0 0 20 0 1 0 " + startTicks + " 12345 67 18446744073709551615\n");
        if (cgroup != null) {
            Files.writeString(dir.resolve("cgroup"), cgroup);
        }
    }

    private static TaskStatsTarget v2(String task, Path dir) {
        return new TaskStatsTarget("a-1", task, "train", "g", "default", CgroupVersion.V2, Map.of("unified", dir), 0, 0);
    }

    private static TaskStatsTarget tree(String task, long rootPid, long startTicks) {
        return new TaskStatsTarget("a-1", task, "train", "g", "default", CgroupVersion.NONE, Map.of(), rootPid, startTicks);
    }

    @Test
    void cgroupV2PidsBelongToTheTaskWhoseCgroupHoldsThemOrAParentOfTheirs() throws IOException {
        TaskStatsTarget trainer = v2("trainer", Path.of("/sys/fs/cgroup/berth-node1/a-1.trainer"));
        TaskStatsTarget other = v2("other", Path.of("/sys/fs/cgroup/berth-node1/a-1.other"));
        process(10, 1, 100, "0::/berth-node1/a-1.trainer\n");
        process(11, 10, 101, "0::/berth-node1/a-1.trainer/workers\n"); // a sub-cgroup the task made
        process(12, 1, 102, "0::/berth-node1/a-1.trainerX\n"); // a name that only starts alike
        process(13, 1, 103, "0::/user.slice/user-1000.slice/session-2.scope\n");

        Map<Long, TaskStatsTarget> owners = new ProcessAttribution(proc, List.of(trainer, other)).owners(List.of(10L, 11L, 12L, 13L, 14L));

        assertThat(owners).containsOnlyKeys(10L, 11L);
        assertThat(owners.get(10L)).isSameAs(trainer);
        assertThat(owners.get(11L)).isSameAs(trainer);
    }

    @Test
    void cgroupV1PidsMatchAnyControllerDirectoryOfTheTask() throws IOException {
        TaskStatsTarget trainer = new TaskStatsTarget("a-1", "trainer", "train", "g", "default", CgroupVersion.V1,
                Map.of("memory", Path.of("/sys/fs/cgroup/memory/berth/a-1.trainer"), "cpu", Path.of("/sys/fs/cgroup/cpu,cpuacct/berth/a-1.trainer")),
                0, 0);
        process(20, 1, 100, "12:pids:/user.slice\n11:memory:/berth/a-1.trainer\n4:cpu,cpuacct:/berth/a-1.trainer\n1:name=systemd:/user.slice\n");
        process(21, 1, 100, "12:pids:/user.slice\n11:memory:/user.slice\n1:name=systemd:/user.slice\n0::/\n");

        assertThat(new ProcessAttribution(proc, List.of(trainer)).owners(List.of(20L, 21L))).containsOnlyKeys(20L);
    }

    @Test
    void withoutACgroupTheProcessTreeDecidesAndARecycledRootPidMatchesNothing() throws IOException {
        process(30, 1, 500, "0::/user.slice\n");
        process(31, 30, 501, "0::/user.slice\n");
        process(32, 31, 502, "0::/user.slice\n"); // grandchild of the root
        process(40, 1, 900, "0::/user.slice\n"); // root pid of a task that died: the pid now has another start time
        process(41, 40, 901, "0::/user.slice\n");
        process(50, 1, 1000, null); // unrelated

        TaskStatsTarget trainer = tree("trainer", 30, 500);
        TaskStatsTarget dead = tree("dead", 40, 777);
        Map<Long, TaskStatsTarget> owners = new ProcessAttribution(proc, List.of(trainer, dead)).owners(List.of(32L, 31L, 30L, 41L, 50L, 99L));

        assertThat(owners).containsOnlyKeys(30L, 31L, 32L);
        assertThat(owners.values()).containsOnly(trainer);
    }
}
