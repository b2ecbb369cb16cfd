package dev.berth.stats;

import java.io.IOException;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.berth.config.NodeIdentity;
import dev.berth.host.cgroup.CgroupLimits;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.host.cgroup.HostCgroups;
import dev.berth.host.cgroup.TaskCgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A task's pressure (PSI) from its real cgroup: on v2 (the VM of {@code .ci/v2-stage.sh}) two busy loops held to a
 * tenth of a core stall, and the cgroup's {@code cpu.pressure} says so; on v1 there are no per-cgroup pressure files,
 * and the reader says nothing rather than something made up.
 */
class TaskPressureKernelTest {

    private final CgroupManager cgroups = HostCgroups.manager(new NodeIdentity(UUID.randomUUID().toString()));
    private TaskCgroup cgroup;
    private Process busy;

    @AfterEach
    void tearDown() throws IOException {
        if (busy != null) {
            busy.destroyForcibly();
        }
        if (cgroup != null) {
            cgroup.remove();
        }
        cgroups.removeParentIfEmpty();
    }

    @Test
    void aThrottledTaskShowsCpuPressureOnV2AndNoneOnV1() throws Exception {
        // a tenth of a core for two busy loops: they wait for the CPU most of the time
        cgroup = cgroups.create("alloc-" + UUID.randomUUID(), "busy", new CgroupLimits(0, 0, 100, 0, 10_000, 100_000)).orElseThrow();
        StringBuilder join = new StringBuilder(); // into every hierarchy (v1) or the one directory (v2)
        for (java.nio.file.Path dir : new java.util.LinkedHashSet<>(cgroup.dirs().values())) {
            join.append("echo $$ > ").append(dir.resolve("cgroup.procs")).append("; ");
        }
        busy = new ProcessBuilder("/bin/sh", "-c", join + "(while :; do :; done) & while :; do :; done").start();
        await().atMost(Duration.ofSeconds(30)).until(() -> cgroup.pids().size() >= 2);

        if (cgroup.version() == CgroupVersion.V2) {
            await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> {
                TaskPressure pressure = TaskPressure.read(cgroup.dir("cpu"));
                assertThat(pressure.cpu().some().totalMicros()).isPositive();
                assertThat(pressure.cpu().some().avg10()).isPositive();
            });
        } else {
            assertThat(TaskPressure.read(cgroup.dir("cpu")).isEmpty()).isTrue();
        }
    }
}
