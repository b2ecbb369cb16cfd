package dev.berth.fingerprint.host;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.config.NodeIdentity;
import dev.berth.fingerprint.FingerprintRequest;
import dev.berth.fingerprint.FingerprintResult;
import dev.berth.fingerprint.TestNodes;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.CgroupMounts;

import static org.assertj.core.api.Assertions.assertThat;

class CgroupFingerprinterTest {

    private static Path fixture(String name) throws Exception {
        return Path.of(CgroupFingerprinterTest.class.getResource("/fingerprint/" + name).toURI());
    }

    private static FingerprintResult fingerprint(Path mountInfo) throws Exception {
        return new CgroupFingerprinter(mountInfo, null).fingerprint(new FingerprintRequest(TestNodes.initial()));
    }

    @Test
    void recordedHybridHostWithV1ControllersIsVersion1() throws Exception {
        // Recorded on the build machine: v1 controllers under /sys/fs/cgroup/*, cgroup2 only at /sys/fs/cgroup/unified.
        assertThat(fingerprint(fixture("mountinfo-v1-hybrid.txt")).attributes()).containsEntry("os.cgroups.version", "1");
    }

    @Test
    void unifiedHierarchyIsVersion2() throws Exception {
        assertThat(fingerprint(fixture("mountinfo-v2-unified.txt")).attributes()).containsEntry("os.cgroups.version", "2");
    }

    @Test
    void noCgroupMountsGiveNoAttribute() throws Exception {
        assertThat(fingerprint(fixture("mountinfo-no-cgroups.txt")).attributes()).doesNotContainKey("os.cgroups.version");
    }

    @Test
    void cgroup2MountedElsewhereWithoutV1IsVersion2() {
        assertThat(CgroupFingerprinter.detect(List.of(
                "30 22 0:28 / /run/cgroup2 rw,relatime - cgroup2 none rw"))).contains("2");
    }

    @Test
    void thisMachineMatchesItsCgroupFilesystem(@TempDir Path unused) throws Exception {
        // Independent oracle: v1 has per-controller directories, v2 has cgroup.controllers at the root.
        String expected = Files.isDirectory(Path.of("/sys/fs/cgroup/memory")) ? "1"
                : Files.exists(Path.of("/sys/fs/cgroup/cgroup.controllers")) ? "2" : null;

        FingerprintResult result = new CgroupFingerprinter(Path.of("/proc/self/mountinfo"), null).fingerprint(new FingerprintRequest(TestNodes.initial()));

        assertThat(expected).as("this host mounts cgroup v1 or v2").isNotNull();
        assertThat(result.attributes().get("os.cgroups.version")).isEqualTo(expected);
    }

    @Test
    void whatTaskCgroupsGetIsReportedAsNodeAttributes(@TempDir Path dir) throws Exception {
        Path root = Files.createDirectories(dir.resolve("cgroup"));
        Files.writeString(root.resolve("cgroup.controllers"), "cpu io memory pids\n");
        Path mountInfo = Files.writeString(dir.resolve("mountinfo"), "30 22 0:28 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
        CgroupManager cgroups = new CgroupManager(new CgroupMounts(Map.of(), root), new NodeIdentity("0123456789"), d -> { });

        FingerprintResult result = new CgroupFingerprinter(mountInfo, cgroups).fingerprint(new FingerprintRequest(TestNodes.initial()));

        assertThat(result.attributes()).containsEntry("os.cgroups.version", "2")
                .containsEntry("unique.cgroup.mountpoint", root.toString())
                .containsEntry("unique.cgroup.parent", root.resolve("berth-01234567").toString())
                .containsEntry("unique.cgroup.controllers", "cpu,memory,pids")
                .doesNotContainKey("unique.cgroup.unavailable");
    }

    @Test
    void aHostWhoseControllersAreNotDelegatedSaysWhy(@TempDir Path dir) throws Exception {
        Path root = Files.createDirectories(dir.resolve("cgroup"));
        Files.writeString(root.resolve("cgroup.controllers"), "pids\n");
        Path mountInfo = Files.writeString(dir.resolve("mountinfo"), "30 22 0:28 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
        CgroupManager cgroups = new CgroupManager(new CgroupMounts(Map.of(), root), new NodeIdentity("0123456789"), d -> { });

        FingerprintResult result = new CgroupFingerprinter(mountInfo, cgroups).fingerprint(new FingerprintRequest(TestNodes.initial()));

        assertThat(result.attributes()).containsEntry("unique.cgroup.unavailable",
                "cgroup v2 controllers cpu, memory are not delegated to " + root + " (its cgroup.controllers: pids)")
                .doesNotContainKey("unique.cgroup.controllers");
    }
}
