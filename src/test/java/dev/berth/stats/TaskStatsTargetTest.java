package dev.berth.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.config.NodeIdentity;
import dev.berth.host.cgroup.CgroupLimits;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.CgroupMounts;
import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.host.cgroup.TaskCgroup;

import static org.assertj.core.api.Assertions.assertThat;

class TaskStatsTargetTest {

    @TempDir
    Path root;

    @Test
    void aHandleWithAnExistingCgroupIsReadFromTheCgroupElseFromItsProcessTree() throws IOException {
        Files.writeString(root.resolve("cgroup.controllers"), "cpu memory pids\n");
        Files.writeString(root.resolve("cgroup.subtree_control"), "");
        CgroupManager cgroups = new CgroupManager(new CgroupMounts(Map.of(), root), new NodeIdentity("node-1"), d -> { });
        TaskCgroup cgroup = cgroups.create("a1", "web", CgroupLimits.none()).orElseThrow();

        TaskStatsTarget fromCgroup = TaskStatsTarget.forTask("a1", "web", "j", "g", "",
                process(Map.of("cgroup", cgroup.name(), "pid", "42", "start_ticks", "7")), cgroups).orElseThrow();
        assertThat(fromCgroup.cgroupVersion()).isEqualTo(CgroupVersion.V2);
        assertThat(fromCgroup.cgroupDirs()).isEqualTo(cgroup.dirs());
        assertThat(fromCgroup.namespace()).isEqualTo("default");

        TaskStatsTarget fromPid = TaskStatsTarget.forTask("a1", "web", "j", "g", "ns",
                process(Map.of("cgroup", "", "pid", "42", "start_ticks", "7")), cgroups).orElseThrow();
        assertThat(fromPid.cgroupVersion()).isEqualTo(CgroupVersion.NONE);
        assertThat(fromPid.rootPid()).isEqualTo(42);
        assertThat(fromPid.startTicks()).isEqualTo(7);

        assertThat(TaskStatsTarget.forTask("a1", "mock", "j", "g", "ns", process(Map.of()), cgroups)).isEmpty();
    }

    @Test
    void aDockerContainersCgroupIsReadInPlaceWhenTheVersionMatchesElseFromItsPid() throws IOException {
        Path memory = Files.createDirectories(root.resolve("memory/docker/c0ffee"));
        Path cpuacct = Files.createDirectories(root.resolve("cpuacct/docker/c0ffee"));
        CgroupManager v1 = new CgroupManager(new CgroupMounts(Map.of("memory", root.resolve("memory"),
                "cpuacct", root.resolve("cpuacct")), null), new NodeIdentity("node-1"), d -> { });

        TaskStatsTarget docker = TaskStatsTarget.forTask("a1", "web", "j", "g", "",
                process(Map.of("cgroup", "docker/c0ffee", "cgroup_version", "1", "pid", "42", "start_ticks", "7")), v1).orElseThrow();
        assertThat(docker.cgroupVersion()).isEqualTo(CgroupVersion.V1);
        assertThat(docker.cgroupDirs()).isEqualTo(Map.of("memory", memory, "cpuacct", cpuacct));
        assertThat(docker.rootPid()).isZero();

        Path scope = Files.createDirectories(root.resolve("v2/system.slice/docker-c0ffee.scope"));
        CgroupManager v2 = new CgroupManager(new CgroupMounts(Map.of(), root.resolve("v2")), new NodeIdentity("node-1"), d -> { });
        TaskStatsTarget systemd = TaskStatsTarget.forTask("a1", "web", "j", "g", "",
                process(Map.of("cgroup", "system.slice/docker-c0ffee.scope", "cgroup_version", "2", "pid", "42")), v2).orElseThrow();
        assertThat(systemd.cgroupVersion()).isEqualTo(CgroupVersion.V2);
        assertThat(systemd.cgroupDirs()).isEqualTo(Map.of(TaskCgroup.UNIFIED, scope));

        // the engine on v2 while the agent sees v1, a removed container, or a path climbing out: the pid instead
        for (Map<String, String> state : java.util.List.of(
                Map.of("cgroup", "docker/c0ffee", "cgroup_version", "2", "pid", "42"),
                Map.of("cgroup", "docker/gone", "cgroup_version", "1", "pid", "42"),
                Map.of("cgroup", "docker/../../etc", "cgroup_version", "1", "pid", "42"))) {
            assertThat(TaskStatsTarget.forTask("a1", "web", "j", "g", "", process(state), v1).orElseThrow())
                    .as(state.toString()).satisfies(t -> {
                        assertThat(t.cgroupVersion()).isEqualTo(CgroupVersion.NONE);
                        assertThat(t.rootPid()).isEqualTo(42);
                    });
        }
    }

    /** The handle's state as the process drivers write it, read the one way the agent reads it. */
    private static dev.berth.host.TaskProcess process(Map<String, String> driverState) {
        return dev.berth.driver.TaskHandles.process(new dev.berth.driver.TaskHandle("raw_exec", "a1/web", null, driverState));
    }
}
