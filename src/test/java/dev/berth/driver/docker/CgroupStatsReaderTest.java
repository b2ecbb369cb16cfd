package dev.berth.driver.docker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reads recorded cgroup v1 and v2 files (copied from real container cgroups) laid out as on a host. */
class CgroupStatsReaderTest {

    @TempDir
    Path root;

    @Test
    void parsesProcCgroupOfAV1HybridHost() {
        String text = """
                12:pids:/docker/abc
                7:memory:/docker/abc
                3:cpu:/docker/abc
                1:name=systemd:/docker/abc
                0::/docker/abc
                """;
        assertThat(ContainerCgroup.parse(text)).contains(new ContainerCgroup(1, "/docker/abc"));
    }

    @Test
    void parsesProcCgroupOfAV2Host() {
        assertThat(ContainerCgroup.parse("0::/system.slice/docker-abc.scope\n"))
                .contains(new ContainerCgroup(2, "/system.slice/docker-abc.scope"));
        assertThat(ContainerCgroup.parse("")).isEmpty();
    }

    @Test
    void derivesTheEnginesDefaultLayout() {
        assertThat(ContainerCgroup.ofEngineLayout("abc", "", "cgroupfs", "1")).isEqualTo(new ContainerCgroup(1, "/docker/abc"));
        assertThat(ContainerCgroup.ofEngineLayout("abc", "berth", "cgroupfs", "2")).isEqualTo(new ContainerCgroup(2, "/berth/abc"));
        assertThat(ContainerCgroup.ofEngineLayout("abc", null, "systemd", "2"))
                .isEqualTo(new ContainerCgroup(2, "/system.slice/docker-abc.scope"));
    }

    @Test
    void readsV1Files() throws IOException {
        ContainerCgroup cgroup = new ContainerCgroup(1, "/docker/abc");
        write(cgroup.dir(root, "memory"), "memory.usage_in_bytes", "104857600\n");
        write(cgroup.dir(root, "memory"), "memory.max_usage_in_bytes", "209715200\n");
        write(cgroup.dir(root, "memory"), "memory.stat", """
                cache 4096
                rss 1000
                total_cache 8192
                total_rss 100663296
                total_inactive_file 4096
                """);
        write(cgroup.dir(root, "cpuacct"), "cpuacct.usage", "2030000000\n");
        write(cgroup.dir(root, "cpuacct"), "cpuacct.stat", "user 150\nsystem 50\n");
        write(cgroup.dir(root, "cpu"), "cpu.stat", "nr_periods 41\nnr_throttled 40\nthrottled_time 1234\n");
        write(cgroup.dir(root, "pids"), "pids.current", "3\n");

        ContainerStats stats = new CgroupStatsReader(root).read(cgroup);

        assertThat(stats).isEqualTo(new ContainerStats(100663296, 8192, 104857600, 209715200, 104857600 - 4096,
                2030000000L, 1_500_000_000L, 500_000_000L, 40, 1234, 3));
    }

    @Test
    void readsV2Files() throws IOException {
        ContainerCgroup cgroup = new ContainerCgroup(2, "/system.slice/docker-abc.scope");
        Path dir = cgroup.dir(root, "");
        write(dir, "memory.current", "52428800\n");
        write(dir, "memory.peak", "60000000\n");
        write(dir, "memory.stat", "anon 50000000\nfile 2000000\ninactive_file 1000000\n");
        write(dir, "cpu.stat", "usage_usec 1000\nuser_usec 600\nsystem_usec 400\nnr_periods 10\nnr_throttled 2\nthrottled_usec 7\n");
        write(dir, "pids.current", "1\n");

        ContainerStats stats = new CgroupStatsReader(root).read(cgroup);

        assertThat(stats).isEqualTo(new ContainerStats(50000000, 2000000, 52428800, 60000000, 51428800,
                1_000_000, 600_000, 400_000, 2, 7000, 1));
    }

    @Test
    void missingControllerFilesReadAsZeroButAMissingCgroupIsAnError() throws IOException {
        ContainerCgroup cgroup = new ContainerCgroup(1, "/docker/only-memory");
        write(cgroup.dir(root, "memory"), "memory.usage_in_bytes", "10\n");

        assertThat(new CgroupStatsReader(root).read(cgroup).usage()).isEqualTo(10);
        assertThatThrownBy(() -> new CgroupStatsReader(root).read(new ContainerCgroup(1, "/docker/gone")))
                .isInstanceOf(NoSuchFileException.class);
    }

    private static void write(Path dir, String name, String content) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(name), content);
    }
}
