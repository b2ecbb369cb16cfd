package dev.berth.host.cgroup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CgroupMountsTest {

    @Test
    void pureV2HostIsV2() throws IOException {
        CgroupMounts mounts = CgroupMounts.parse(fixture("v2.txt"));

        assertThat(mounts.version()).isEqualTo(CgroupVersion.V2);
        assertThat(mounts.v2Root()).isEqualTo(Path.of("/sys/fs/cgroup"));
        assertThat(mounts.v1()).isEmpty();
    }

    @Test
    void hybridHostUsesTheV1ControllersAndSeesCoMountedCpuAndCpuacct() throws IOException {
        CgroupMounts mounts = CgroupMounts.parse(fixture("hybrid.txt"));

        assertThat(mounts.version()).isEqualTo(CgroupVersion.V1);
        assertThat(mounts.v2Root()).isEqualTo(Path.of("/sys/fs/cgroup/unified"));
        assertThat(mounts.v1()).containsOnly(
                org.assertj.core.api.Assertions.entry("memory", Path.of("/sys/fs/cgroup/memory")),
                org.assertj.core.api.Assertions.entry("cpu", Path.of("/sys/fs/cgroup/cpu,cpuacct")),
                org.assertj.core.api.Assertions.entry("cpuacct", Path.of("/sys/fs/cgroup/cpu,cpuacct")),
                org.assertj.core.api.Assertions.entry("pids", Path.of("/sys/fs/cgroup/pids")));
    }

    @Test
    void thisBuildHostHasSeparateCpuAndCpuacctHierarchies() throws IOException {
        CgroupMounts mounts = CgroupMounts.parse(fixture("here-v1.txt"));

        assertThat(mounts.version()).isEqualTo(CgroupVersion.V1);
        assertThat(mounts.v1().get("cpu")).isEqualTo(Path.of("/sys/fs/cgroup/cpu"));
        assertThat(mounts.v1().get("cpuacct")).isEqualTo(Path.of("/sys/fs/cgroup/cpuacct"));
    }

    @Test
    void bindMountedSubtreesAreIgnoredAndOctalEscapesDecoded() throws IOException {
        CgroupMounts mounts = CgroupMounts.parse(fixture("container-bind.txt"));

        assertThat(mounts.v2Root()).isNull();
        assertThat(mounts.v1()).containsEntry("memory", Path.of("/mnt/my cgroup"));
        assertThat(mounts.version()).isEqualTo(CgroupVersion.V1);
    }

    @Test
    void noCgroupMountsMeansNone() {
        assertThat(CgroupMounts.parse(List.of("22 1 259:1 / / rw - ext4 /dev/sda1 rw", "garbage")).version())
                .isEqualTo(CgroupVersion.NONE);
    }

    private static List<String> fixture(String name) throws IOException {
        try (InputStream in = CgroupMountsTest.class.getResourceAsStream("/cgroup/mountinfo/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
