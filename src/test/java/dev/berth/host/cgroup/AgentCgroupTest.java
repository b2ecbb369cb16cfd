package dev.berth.host.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Finding the agent's cgroup and its namespace root in each placement, against directories laid out like cgroup2. */
class AgentCgroupTest {

    @TempDir
    Path mount;

    @Test
    void onAHostOrAsAServiceTheMountIsTheNamespaceRoot() {
        CgroupMounts mounts = new CgroupMounts(Map.of(), mount);

        assertThat(AgentCgroup.locate(mounts, List.of("0::/system.slice/berth.service"), 42))
                .contains(new AgentCgroup(mount, mount.resolve("system.slice/berth.service")));
        assertThat(AgentCgroup.locate(mounts, List.of("0::/"), 42)).contains(new AgentCgroup(mount, mount));
    }

    @Test
    void aContainerWithItsOwnCgroup2MountSitsAtItsRoot() {
        // mountinfo root "/": the container mounted cgroup2 inside its namespace
        CgroupMounts mounts = CgroupMounts.parse(List.of(
                "30 25 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup rw,nsdelegate"));

        assertThat(mounts.v2NamespaceDepth()).isZero();
        assertThat(AgentCgroup.locate(mounts, List.of("0::/"), 42)).contains(new AgentCgroup(Path.of("/sys/fs/cgroup"), Path.of("/sys/fs/cgroup")));
    }

    @Test
    void theHostTreeMountedIntoANamespaceIsSearchedForTheAgentsPid() throws IOException {
        // the Helm chart's shape: the host's /sys/fs/cgroup in a container whose namespace root is kubepods/pod-a/ctr
        cgroup("kubepods/pod-a/ctr", "42\n77\n");
        cgroup("kubepods/pod-b/ctr", "43\n");
        cgroup("system.slice/cron", "1\n");
        CgroupMounts mounts = new CgroupMounts(Map.of(), mount, 3);

        assertThat(AgentCgroup.locate(mounts, List.of("0::/"), 42))
                .contains(new AgentCgroup(mount.resolve("kubepods/pod-a/ctr"), mount.resolve("kubepods/pod-a/ctr")));
        // after the agent moved into a leaf of its namespace root, /proc/self/cgroup names the leaf
        cgroup("kubepods/pod-b/ctr/berth-agent", "43\n");
        assertThat(AgentCgroup.locate(mounts, List.of("0::/berth-agent"), 43))
                .contains(new AgentCgroup(mount.resolve("kubepods/pod-b/ctr"), mount.resolve("kubepods/pod-b/ctr/berth-agent")));
        assertThat(AgentCgroup.locate(mounts, List.of("0::/"), 99)).isEmpty();
    }

    @Test
    void noUnifiedLineOrNoV2MountIsUnknown() {
        assertThat(AgentCgroup.locate(new CgroupMounts(Map.of(), mount), List.of("4:memory:/x"), 1)).isEmpty();
        assertThat(AgentCgroup.locate(CgroupMounts.none(), List.of("0::/"), 1)).isEmpty();
    }

    @Test
    void mountinfoRootsAboveTheNamespaceAreUsedAndNamedSubtreesAreNot() {
        CgroupMounts above = CgroupMounts.parse(List.of(
                "1290 1280 0:26 /../../.. /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot"));
        assertThat(above.v2Root()).isEqualTo(Path.of("/sys/fs/cgroup"));
        assertThat(above.v2NamespaceDepth()).isEqualTo(3);
        assertThat(above.version()).isEqualTo(CgroupVersion.V2);

        CgroupMounts subtree = CgroupMounts.parse(List.of(
                "1290 1280 0:26 /kubepods/pod-a /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw"));
        assertThat(subtree.version()).isEqualTo(CgroupVersion.NONE);

        // a mount of the namespace's own root wins over one of the tree above it
        CgroupMounts both = CgroupMounts.parse(List.of(
                "10 1 0:26 /.. /host/cgroup rw - cgroup2 cgroup2 rw",
                "11 1 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw"));
        assertThat(both.v2Root()).isEqualTo(Path.of("/sys/fs/cgroup"));
        assertThat(both.v2NamespaceDepth()).isZero();
    }

    private void cgroup(String path, String procs) throws IOException {
        Path dir = Files.createDirectories(mount.resolve(path));
        Files.writeString(dir.resolve("cgroup.procs"), procs);
    }
}
