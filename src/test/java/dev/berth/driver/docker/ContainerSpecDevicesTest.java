package dev.berth.driver.docker;

import java.util.List;
import java.util.Map;

import com.github.dockerjava.api.model.Device;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import org.junit.jupiter.api.Test;

import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskDevice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code TaskConfig.devices} → the container's {@code HostConfig.Devices} and binds. */
class ContainerSpecDevicesTest {

    private static TaskConfig task(List<TaskDevice> devices) {
        return new TaskConfig("a/web", "a", "web", "j", "g", "default", Map.of("image", "berth-test/busybox:1"), Map.of(),
                null, null, null, null, 0, 0, 0, devices);
    }

    @Test
    void deviceNodesBecomeDevicesAndMountsBecomeBindMountsWithTheirMode() throws Exception {
        TaskConfig task = task(List.of(new TaskDevice.Node("/dev/zero", "/dev/berth-zero", "r"),
                new TaskDevice.Mount("/srv/dev0", "/dev/berth-example/dev0", true), new TaskDevice.Mount("/srv/scratch", "/scratch", false)));

        HostConfig host = ContainerSpec.hostConfig(task, DockerTaskConfig.parse(task.config()));

        assertThat(host.getDevices()).containsExactly(new Device("r", "/dev/berth-zero", "/dev/zero"));
        assertThat(host.getMounts()).containsExactly(bind("/srv/dev0", "/dev/berth-example/dev0", true), bind("/srv/scratch", "/scratch", false));
    }

    private static Mount bind(String source, String target, boolean readOnly) {
        return new Mount().withType(MountType.BIND).withSource(source).withTarget(target).withReadOnly(readOnly);
    }

    @Test
    void noDevicesLeaveTheHostConfigWithout() throws Exception {
        TaskConfig task = task(List.of());

        assertThat(ContainerSpec.hostConfig(task, DockerTaskConfig.parse(task.config())).getDevices()).isNull();
    }

    @Test
    void aPathWithAColonIsTakenWhole() throws Exception {
        TaskConfig task = task(List.of(new TaskDevice.Mount("/srv/data:2024", "/data:ro", true),
                new TaskDevice.Node("/dev/disk/by-path/pci-0000:00:1f.2", "/dev/disk0", "rw")));

        HostConfig host = ContainerSpec.hostConfig(task, DockerTaskConfig.parse(task.config()));

        assertThat(host.getMounts()).containsExactly(bind("/srv/data:2024", "/data:ro", true));
        assertThat(host.getDevices()).containsExactly(new Device("rw", "/dev/disk0", "/dev/disk/by-path/pci-0000:00:1f.2"));
    }

    @Test
    void malformedDevicesAreRefusedNamingTheDevice() {
        for (TaskDevice bad : List.of(new TaskDevice.Node("/dev/x", "/dev/x", ""), new TaskDevice.Node("/dev/x", "/dev/x", "rx"),
                new TaskDevice.Mount("relative", "/b", true), new TaskDevice.Node("/dev/x", "dev/x", "r"),
                new TaskDevice.Mount("/a", null, false))) {
            assertThatThrownBy(() -> ContainerSpec.validate(bad)).as(bad.toString())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(bad.toString());
        }
    }
}
