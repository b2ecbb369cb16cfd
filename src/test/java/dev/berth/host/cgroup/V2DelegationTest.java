package dev.berth.host.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.config.NodeIdentity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The v2 setup's decisions against directories laid out like cgroup2 (what the kernel then refuses or accepts is
 * proven on the real kernel by .ci/v2-stage.sh's placements).
 */
class V2DelegationTest {

    @TempDir
    Path root;

    @Test
    void enablesOnlyDelegatedControllersInTheRootAndTheNodesParent() throws IOException {
        Files.writeString(root.resolve("cgroup.controllers"), "cpu io memory pids rdma\n");
        Files.writeString(root.resolve("cgroup.subtree_control"), "memory\n");

        CgroupSetup setup = V2Delegation.prepare(root, root.resolve("berth-n1"), Optional.empty());

        assertThat(setup).isEqualTo(new CgroupSetup.Ready(Set.of(root.resolve("berth-n1")), Set.of("cpu", "memory", "pids"), null));
        assertThat(Files.readString(root.resolve("cgroup.subtree_control"))).isEqualTo("+cpu +pids");
        assertThat(Files.readString(root.resolve("berth-n1/cgroup.subtree_control"))).isEqualTo("+cpu +memory +pids");
    }

    @Test
    void cpusetIsTakenWhenDelegated() throws IOException {
        Files.writeString(root.resolve("cgroup.controllers"), "cpuset cpu memory pids\n");

        CgroupSetup setup = V2Delegation.prepare(root, root.resolve("berth-n1"), Optional.empty());

        assertThat(((CgroupSetup.Ready) setup).controllers()).containsExactlyInAnyOrder("cpuset", "cpu", "memory", "pids");
    }

    @Test
    void aMissingRequiredControllerIsUnavailableWithWhatIsThere() throws IOException {
        Files.writeString(root.resolve("cgroup.controllers"), "cpu pids\n");

        CgroupSetup setup = V2Delegation.prepare(root, root.resolve("berth-n1"), Optional.empty());

        assertThat(setup).isEqualTo(new CgroupSetup.Unavailable(
                "cgroup v2 controllers memory are not delegated to " + root + " (its cgroup.controllers: cpu pids)"));
        assertThat(root.resolve("berth-n1")).doesNotExist();
    }

    @Test
    void anUnwritableSubtreeControlIsUnavailableNamingTheFile() throws IOException {
        Files.writeString(root.resolve("cgroup.controllers"), "cpu memory pids\n");
        // a write to it fails: it leads into a directory that does not exist
        Files.createSymbolicLink(root.resolve("cgroup.subtree_control"), root.resolve("gone/subtree_control"));

        CgroupSetup setup = V2Delegation.prepare(root, root.resolve("berth-n1"), Optional.empty());

        assertThat(setup).isInstanceOf(CgroupSetup.Unavailable.class);
        assertThat(((CgroupSetup.Unavailable) setup).reason())
                .startsWith("writing '+cpu +memory +pids' to " + root.resolve("cgroup.subtree_control") + " failed: ");
    }

    @Test
    void theManagerRefusesTaskCgroupsWithTheReasonAndTriesAgainLater() throws IOException {
        Files.writeString(root.resolve("cgroup.controllers"), "cpu pids\n");
        CgroupManager manager = new CgroupManager(new CgroupMounts(Map.of(), root), new NodeIdentity("0123456789"), d -> { });

        assertThat(manager.setup()).isInstanceOf(CgroupSetup.Unavailable.class);
        assertThat(manager.create("a", "t", CgroupLimits.none())).isEmpty();

        Files.writeString(root.resolve("cgroup.controllers"), "cpu memory pids\n"); // delegated later
        assertThat(manager.setup()).isInstanceOf(CgroupSetup.Ready.class);
        assertThat(manager.create("a", "t", CgroupLimits.none())).isPresent();
    }

    @Test
    void aHiddenNamespaceRootThatCannotBeFoundIsUnavailable() {
        CgroupManager manager = new CgroupManager(new CgroupMounts(Map.of(), root, 2), new NodeIdentity("0123456789"), d -> { },
                Optional.empty());

        assertThat(manager.setup()).isEqualTo(new CgroupSetup.Unavailable(
                "the agent's cgroup namespace root is not found in " + root + " (mounted from 2 levels above it)"));
    }
}
