package dev.berth.host.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.config.NodeIdentity;

import static org.assertj.core.api.Assertions.assertThat;

/** The v2 write path against a temporary directory laid out like a cgroup2 mount (this host is v1). */
class CgroupManagerV2FixtureTest {

    @TempDir
    Path root;

    private CgroupManager manager;

    @BeforeEach
    void setUp() throws IOException {
        Files.writeString(root.resolve("cgroup.controllers"), "cpu io memory pids\n");
        Files.writeString(root.resolve("cgroup.subtree_control"), "cpu\n");
        manager = new CgroupManager(new CgroupMounts(Map.of(), root), new NodeIdentity("0123456789abcdef"), d -> { });
    }

    @Test
    void createsTheTaskDirectoryUnderTheNodeParentWithControllersAndLimits() throws IOException {
        TaskCgroup cgroup = manager.create("alloc-1", "web", new CgroupLimits(256L << 20, 512L << 20, 500, 64)).orElseThrow();

        assertThat(cgroup.version()).isEqualTo(CgroupVersion.V2);
        assertThat(cgroup.name()).isEqualTo("berth-01234567/alloc-1.web");
        Path dir = root.resolve("berth-01234567/alloc-1.web");
        assertThat(cgroup.dir("memory")).isEqualTo(dir);
        // only the controllers not yet enabled are added, in one write
        assertThat(Files.readString(root.resolve("cgroup.subtree_control"))).isEqualTo("+memory +pids");
        assertThat(Files.readString(root.resolve("berth-01234567/cgroup.subtree_control"))).isEqualTo("+cpu +memory +pids");
        assertThat(Files.readString(dir.resolve("memory.max"))).isEqualTo(Long.toString(512L << 20));
        assertThat(Files.readString(dir.resolve("memory.low"))).isEqualTo(Long.toString(256L << 20));
        // 256 MiB + 0.9 × 256 MiB, on a page boundary
        assertThat(Files.readString(dir.resolve("memory.high"))).isEqualTo(Long.toString(((256L << 20) + (long) (0.9 * (256L << 20))) / 4096 * 4096));
        assertThat(Files.readString(dir.resolve("memory.swap.max"))).isEqualTo("0");
        assertThat(Files.readString(dir.resolve("cpu.weight"))).isEqualTo("19"); // 1 + (498 * 9999) / 262142
        assertThat(Files.readString(dir.resolve("pids.max"))).isEqualTo("64");
    }

    @Test
    void addProcessWritesTheUnifiedProcsFileAndRemoveDeletesTheDirectory() throws IOException {
        TaskCgroup cgroup = manager.create("a", "t", CgroupLimits.none()).orElseThrow();

        cgroup.addProcess(4242);
        assertThat(Files.readString(cgroup.dir("memory").resolve("cgroup.procs"))).isEqualTo("4242");
        assertThat(manager.find("berth-01234567/a.t")).isPresent();

        Files.writeString(cgroup.dir("memory").resolve("cgroup.procs"), "");
        cgroup.remove();
        assertThat(cgroup.dir("memory")).doesNotExist();
        assertThat(manager.find("berth-01234567/a.t")).isEmpty();
    }

    @Test
    void namesCannotEscapeTheParent() {
        TaskCgroup cgroup = manager.create("../..", "a/b", CgroupLimits.none()).orElseThrow();

        assertThat(cgroup.name()).isEqualTo("berth-01234567/.._...a_b");
        assertThat(cgroup.dir("memory").getParent()).isEqualTo(root.resolve("berth-01234567"));
    }

    @Test
    void findRefusesOtherNodesCgroups() {
        assertThat(manager.find("berth-ffffffff/x.y")).isEmpty();
        assertThat(manager.find("")).isEmpty();
    }

    @Test
    void unwritableHierarchyFallsBackToEmpty() throws IOException {
        Path readOnly = root.resolve("missing-mount");
        CgroupManager broken = new CgroupManager(new CgroupMounts(Map.of(), readOnly), new NodeIdentity("n1"), d -> { });

        assertThat(broken.create("a", "t", CgroupLimits.none())).isEmpty();
        assertThat(new CgroupManager(CgroupMounts.none(), new NodeIdentity("n1"), d -> { })
                .create("a", "t", CgroupLimits.none())).isEmpty();
    }
}
