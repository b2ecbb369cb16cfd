package dev.berth.host.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import dev.berth.config.NodeIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * OOM-kill counts on cgroup v2 ({@code memory.events}, fixture in the kernel's format; this host is v1, whose
 * {@code memory.oom_control} the exec and raw_exec tests exercise on the real kernel).
 */
class OomKillsTest {

    @TempDir
    Path root;

    @Test
    void v2CountsComeFromMemoryEvents() throws IOException {
        Files.writeString(root.resolve("cgroup.controllers"), "cpu memory pids\n");
        Files.writeString(root.resolve("cgroup.subtree_control"), "");
        CgroupManager manager = new CgroupManager(new CgroupMounts(Map.of(), root), new NodeIdentity("0123456789abcdef"), d -> { });
        TaskCgroup cgroup = manager.create("a", "t", CgroupLimits.none()).orElseThrow();
        assertThat(OomKills.count(cgroup)).as("no memory.events yet").isZero();

        Files.copy(Path.of("src/test/resources/cgroupv2/task/memory.events"), cgroup.dir("memory").resolve("memory.events"));

        assertThat(OomKills.count(cgroup)).isEqualTo(2);
    }

    @Test
    void v1ControlFileAndAKernelWithoutTheCounter() {
        assertThat(OomKills.parse("oom_kill_disable 0\nunder_oom 0\noom_kill 3\n")).isEqualTo(3);
        assertThat(OomKills.parse("oom_kill_disable 0\nunder_oom 0\n")).as("kernels before 4.13 have no oom_kill line").isZero();
    }
}
