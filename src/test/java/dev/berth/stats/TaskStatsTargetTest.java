package dev.berth.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.config.NodeIdentity;
import dev.berth.driver.cgroup.CgroupLimits;
import dev.berth.driver.cgroup.CgroupManager;
import dev.berth.driver.cgroup.CgroupMounts;
import dev.berth.driver.cgroup.CgroupVersion;
import dev.berth.driver.cgroup.TaskCgroup;

import static org.assertj.core.api.Assertions.assertThat;

class TaskStatsTargetTest {

    @TempDir
    Path root;

    @Test
    void aHandleWithAnExistingCgroupIsReadFromTheCgroupElseFromItsProcessTree() throws IOException {
        Files.writeString(root.resolve("cgroup.subtree_control"), "");
        CgroupManager cgroups = new CgroupManager(new CgroupMounts(Map.of(), root), new NodeIdentity("node-1"), d -> { });
        TaskCgroup cgroup = cgroups.create("a1", "web", CgroupLimits.none()).orElseThrow();

        TaskStatsTarget fromCgroup = TaskStatsTarget.fromDriverState("a1", "web", "j", "g", "",
                Map.of("cgroup", cgroup.name(), "pid", "42", "start_ticks", "7"), cgroups).orElseThrow();
        assertThat(fromCgroup.cgroupVersion()).isEqualTo(CgroupVersion.V2);
        assertThat(fromCgroup.cgroupDirs()).isEqualTo(cgroup.dirs());
        assertThat(fromCgroup.namespace()).isEqualTo("default");

        TaskStatsTarget fromPid = TaskStatsTarget.fromDriverState("a1", "web", "j", "g", "ns",
                Map.of("cgroup", "", "pid", "42", "start_ticks", "7"), cgroups).orElseThrow();
        assertThat(fromPid.cgroupVersion()).isEqualTo(CgroupVersion.NONE);
        assertThat(fromPid.rootPid()).isEqualTo(42);
        assertThat(fromPid.startTicks()).isEqualTo(7);

        assertThat(TaskStatsTarget.fromDriverState("a1", "mock", "j", "g", "ns", Map.of(), cgroups)).isEmpty();
    }
}
