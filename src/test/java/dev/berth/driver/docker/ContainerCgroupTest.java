package dev.berth.driver.docker;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Where a container's cgroup is: parsed from {@code /proc/<pid>/cgroup}, or the engine's default layout. */
class ContainerCgroupTest {

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
    void roundTripsThroughDriverStateWithoutTheLeadingSlash() {
        ContainerCgroup cgroup = new ContainerCgroup(1, "/docker/abc");

        assertThat(cgroup.statePath()).isEqualTo("docker/abc");
        assertThat(ContainerCgroup.fromState(Map.of("cgroup_version", "1", "cgroup", cgroup.statePath()))).contains(cgroup);
        assertThat(ContainerCgroup.fromState(Map.of("cgroup", "docker/abc"))).isEmpty();
    }
}
