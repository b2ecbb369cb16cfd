package dev.berth.fingerprint;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.device.DeviceGroup;
import dev.berth.device.DeviceInstance;
import dev.berth.device.DeviceManager;
import dev.berth.device.DeviceProperties;
import dev.berth.device.DeviceStatsIndex;
import dev.berth.config.Sleeper;
import dev.berth.device.example.ExampleDevicePlugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The device manager's device list lands in the node's {@code NodeResources.Devices} (real example plugin, real files). */
class NodeDevicesUpdaterTest {

    private final NodeRegistry registry = TestNodes.registry(Clock.systemUTC());
    private DeviceManager manager;

    @AfterEach
    void stop() {
        if (manager != null) {
            manager.stop();
        }
    }

    @Test
    void devicesAndTheirHealthFollowThePlugin(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("dev0"), "healthy\n");
        Files.writeString(dir.resolve("dev1"), "unhealthy: fan stuck\n");
        DeviceProperties properties = new DeviceProperties(Duration.ofMillis(100), Duration.ofSeconds(5),
                new DeviceProperties.Example(true, dir, "berth", "file", "example", Duration.ofMillis(50)),
                new DeviceProperties.Nvidia(false, "nvidia-smi", Duration.ofMinutes(1)));
        manager = new DeviceManager(
                List.of(new ExampleDevicePlugin(properties.example(), Sleeper.system(), Clock.systemUTC())),
                properties, Sleeper.system(), new DeviceStatsIndex(), List.of(new NodeDevicesUpdater(registry)));

        manager.start();

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            List<DeviceGroup> devices = registry.current().resources().devices();
            assertThat(devices).singleElement().satisfies(group -> {
                assertThat(group.vendor()).isEqualTo("berth");
                assertThat(group.instances()).extracting(DeviceInstance::id, DeviceInstance::healthy)
                        .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("dev0", true),
                                org.assertj.core.groups.Tuple.tuple("dev1", false));
            });
        });

        Files.delete(dir.resolve("dev1"));

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(registry.current().resources().devices().getFirst().instances())
                        .extracting(DeviceInstance::id).containsExactly("dev0"));
    }
}
