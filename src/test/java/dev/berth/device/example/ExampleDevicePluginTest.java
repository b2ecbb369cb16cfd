package dev.berth.device.example;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.berth.device.DeviceGroup;
import dev.berth.device.DeviceGroupStats;
import dev.berth.device.DeviceInstance;
import dev.berth.device.DeviceManager;
import dev.berth.device.DeviceProperties;
import dev.berth.device.DeviceStatsIndex;
import dev.berth.device.Reservation;
import dev.berth.config.Sleeper;
import dev.berth.device.StatValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class ExampleDevicePluginTest {

    private static final Instant NOW = Instant.parse("2026-11-22T00:00:00Z");

    @TempDir
    Path dir;

    private DeviceProperties.Example properties(Duration poll) {
        return new DeviceProperties.Example(true, dir, "berth", "file", "example", poll);
    }

    private ExampleDevicePlugin plugin() {
        return new ExampleDevicePlugin(properties(Duration.ofMillis(20)), Sleeper.system(), Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void everyFileIsAnInstanceWithHealthFromItsFirstLine() throws IOException {
        Files.writeString(dir.resolve("dev0"), "healthy\n");
        Files.writeString(dir.resolve("dev1"), "unhealthy: fan stuck\n");
        Files.writeString(dir.resolve("dev2"), "");
        Files.createDirectory(dir.resolve("not-a-device"));

        List<DeviceGroup> groups = plugin().scan();

        assertThat(groups).hasSize(1);
        DeviceGroup group = groups.getFirst();
        assertThat(group.key().toString()).isEqualTo("berth/file/example");
        assertThat(group.instances()).containsExactly(
                new DeviceInstance("dev0", true, "", null),
                new DeviceInstance("dev1", false, "fan stuck", null),
                new DeviceInstance("dev2", true, "", null));
        assertThat(group.problems()).isEmpty();
    }

    @Test
    void anEmptyDirectoryHasNoDevicesAndAMissingOneIsAnError() throws IOException {
        assertThat(plugin().scan()).isEmpty();
        Files.delete(dir);
        assertThatThrownBy(() -> plugin().scan()).isInstanceOf(IOException.class);
    }

    @Test
    void statsComeFromTheFiles() throws IOException {
        Files.writeString(dir.resolve("dev0"), "healthy\ntemperature=41\npower=12.5 W\nmode=busy\nignored line\n");

        List<DeviceGroupStats> stats = plugin().readStats();

        var dev0 = stats.getFirst().instanceStats().get("dev0");
        assertThat(dev0.timestamp()).isEqualTo(NOW);
        assertThat(dev0.summary()).isEqualTo(StatValue.ofInt(Files.size(dir.resolve("dev0")), "B", "file size"));
        assertThat(dev0.stats().attributes()).containsExactly(
                Map.entry("temperature", StatValue.ofInt(41, "", "")),
                Map.entry("power", StatValue.ofFloat(12.5, "W", "")),
                Map.entry("mode", StatValue.ofString("busy", "", "")));
    }

    @Test
    void reserveMountsTheFilesAndRefusesUnknownOrEscapingIds() throws Exception {
        Files.writeString(dir.resolve("dev0"), "");
        Files.writeString(dir.resolve("dev1"), "");
        Reservation reservation = plugin().reserve(List.of("dev0", "dev1"));
        assertThat(reservation.envs()).containsExactly(Map.entry("BERTH_EXAMPLE_DEVICES", "dev0,dev1"));
        assertThat(reservation.mounts()).containsExactly(
                new Reservation.Mount("/dev/berth-example/dev0", dir.resolve("dev0").toAbsolutePath().toString(), true),
                new Reservation.Mount("/dev/berth-example/dev1", dir.resolve("dev1").toAbsolutePath().toString(), true));
        assertThatThrownBy(() -> plugin().reserve(List.of("dev0", "dev9", "../etc"))).hasMessage("unknown device IDs: dev9,../etc");
    }

    @Test
    void appearingDisappearingAndSickeningFilesChangeTheFingerprintUnderTheManager() throws IOException {
        Files.writeString(dir.resolve("dev0"), "");
        List<List<DeviceGroup>> published = new CopyOnWriteArrayList<>();
        DeviceProperties deviceProperties = new DeviceProperties(Duration.ofMillis(50), Duration.ofSeconds(5),
                properties(Duration.ofMillis(20)), new DeviceProperties.Nvidia(false, "nvidia-smi", Duration.ofMinutes(1)));
        DeviceStatsIndex index = new DeviceStatsIndex();
        DeviceManager manager = new DeviceManager(List.of(plugin()), deviceProperties, Sleeper.system(), index,
                List.of(published::add));
        manager.start();
        try {
            await().until(() -> ids(manager).equals(List.of("dev0")));
            Files.writeString(dir.resolve("dev1"), "");
            await().until(() -> ids(manager).equals(List.of("dev0", "dev1")));
            await().until(() -> index.get("dev1") != null);
            Files.writeString(dir.resolve("dev0"), "unhealthy: overheated\n");
            await().until(() -> !manager.devices().getFirst().instances().getFirst().healthy());
            assertThat(manager.devices().getFirst().instances().getFirst().healthDescription()).isEqualTo("overheated");
            Files.delete(dir.resolve("dev1"));
            await().until(() -> ids(manager).equals(List.of("dev0")));
            await().until(() -> index.get("dev1") == null);
            // every change was published once, no duplicates for unchanged polls
            assertThat(published).hasSize(4);
        }
        finally {
            manager.stop();
        }
    }

    private static List<String> ids(DeviceManager manager) {
        return manager.devices().stream().flatMap((group) -> group.instances().stream()).map(DeviceInstance::id).toList();
    }
}
