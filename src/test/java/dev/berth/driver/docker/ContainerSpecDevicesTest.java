package dev.berth.driver.docker;

import java.util.List;
import java.util.Map;

import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Device;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Volume;
import org.junit.jupiter.api.Test;

import dev.berth.driver.TaskConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code TaskConfig.devices} → the container's {@code HostConfig.Devices} and binds. */
class ContainerSpecDevicesTest {

    private static TaskConfig task(List<String> devices) {
        return new TaskConfig("a/web", "a", "web", "j", "g", "default", Map.of("image", "berth-test/busybox:1"), Map.of(),
                null, null, null, null, 0, 0, 0, devices);
    }

    @Test
    void deviceNodesBecomeDevicesAndMountsBecomeBindsWithTheirMode() throws Exception {
        TaskConfig task = task(List.of("device:/dev/zero:/dev/berth-zero:r", "mount:/srv/dev0:/dev/berth-example/dev0:ro",
                "mount:/srv/scratch:/scratch:rw"));

        HostConfig host = ContainerSpec.hostConfig(task, DockerTaskConfig.parse(task.config()));

        assertThat(host.getDevices()).containsExactly(new Device("r", "/dev/berth-zero", "/dev/zero"));
        assertThat(host.getBinds()).containsExactly(new Bind("/srv/dev0", new Volume("/dev/berth-example/dev0"), AccessMode.ro),
                new Bind("/srv/scratch", new Volume("/scratch"), AccessMode.rw));
    }

    @Test
    void noDevicesLeaveTheHostConfigWithout() throws Exception {
        TaskConfig task = task(List.of());

        assertThat(ContainerSpec.hostConfig(task, DockerTaskConfig.parse(task.config())).getDevices()).isNull();
    }

    @Test
    void malformedEntriesAreRefusedNamingTheEntry() {
        for (String bad : List.of("gpu:/dev/x:/dev/x:r", "device:/dev/x:/dev/x:", "device:/dev/x:/dev/x:rx",
                "mount:/a:/b:rx", "mount:/a:ro", "mount:relative:/b:ro", "device:/dev/x:dev/x:r")) {
            assertThatThrownBy(() -> ContainerSpec.DeviceEntry.parse(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'" + bad + "'");
        }
    }
}
