package dev.berth.host.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.config.NodeIdentity;

import static org.assertj.core.api.Assertions.assertThat;

/** Reading a container's cgroup by the path {@code /proc/<pid>/cgroup} shows, from wherever the agent sits. */
class ForeignCgroupsTest {

    @TempDir
    Path mount;

    @Test
    void onAHostThePathIsUnderTheMount() throws IOException {
        Files.createDirectories(mount.resolve("system.slice/docker-abc.scope"));
        CgroupManager manager = new CgroupManager(new CgroupMounts(Map.of(), mount), new NodeIdentity("n1"), d -> { });

        assertThat(manager.foreignDirs("/system.slice/docker-abc.scope"))
                .contains(Map.of(TaskCgroup.UNIFIED, mount.resolve("system.slice/docker-abc.scope")));
        assertThat(manager.foreignDirs("/system.slice/docker-gone.scope")).isEmpty();
    }

    @Test
    void inANamespaceWithTheHostTreeMountedThePathIsRelativeToTheNamespaceRoot() throws IOException {
        Path nsRoot = Files.createDirectories(mount.resolve("kubepods/pod-a/ctr"));
        Files.createDirectories(mount.resolve("system.slice/docker-abc.scope"));
        Files.createDirectories(nsRoot.resolve("docker/def"));
        CgroupManager manager = new CgroupManager(new CgroupMounts(Map.of(), mount, 3), new NodeIdentity("n1"), d -> { },
                Optional.of(new AgentCgroup(nsRoot, nsRoot.resolve("berth-agent"))));

        // a container beside the agent's own: the kernel shows it with ".." steps out of the agent's namespace
        assertThat(manager.foreignDirs("/../../../system.slice/docker-abc.scope"))
                .contains(Map.of(TaskCgroup.UNIFIED, mount.resolve("system.slice/docker-abc.scope")));
        assertThat(manager.foreignDirs("/docker/def")).contains(Map.of(TaskCgroup.UNIFIED, nsRoot.resolve("docker/def")));
        // never out of the mount
        assertThat(manager.foreignDirs("/../../../..")).isEmpty();
    }
}
