package dev.berth.device.nvidia;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.berth.device.Attribute;
import dev.berth.device.DeviceGroup;
import dev.berth.device.DeviceGroupStats;
import dev.berth.device.DeviceInstance;
import dev.berth.device.DeviceManager;
import dev.berth.device.DeviceProperties;
import dev.berth.device.DeviceStatsIndex;
import dev.berth.device.DeviceStats;
import dev.berth.config.Sleeper;
import dev.berth.device.StatValue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Runs the plugin against a fixture program that prints real-format nvidia-smi CSV. */
class NvidiaDevicePluginTest {

    private static final String A = "GPU-aaaaaaaa-1111-2222-3333-444444444444";

    private static final String B = "GPU-bbbbbbbb-1111-2222-3333-444444444444";

    private static final String C = "GPU-cccccccc-1111-2222-3333-444444444444";

    private static final Instant NOW = Instant.parse("2026-11-22T00:00:00Z");

    @TempDir
    Path dir;

    private Path smi;

    @BeforeEach
    void installFixture() throws IOException {
        smi = dir.resolve("nvidia-smi");
        try (InputStream in = getClass().getResourceAsStream("/nvidia/fake-nvidia-smi.sh")) {
            Files.copy(in, smi);
        }
        Files.setPosixFilePermissions(smi, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private NvidiaDevicePlugin plugin(Sleeper sleeper) {
        return new NvidiaDevicePlugin(smi.toString(), Duration.ofMillis(50), Duration.ofSeconds(10), sleeper,
                Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void fingerprintGroupsByModelWithNomadAttributesAndInstancesByUuid() throws Exception {
        List<DeviceGroup> groups = plugin(Sleeper.system()).fingerprintOnce();

        assertThat(groups).extracting(DeviceGroup::name).containsExactly("Tesla T4", "NVIDIA GeForce RTX 3090");
        DeviceGroup t4 = groups.getFirst();
        assertThat(t4.vendor()).isEqualTo("nvidia");
        assertThat(t4.type()).isEqualTo("gpu");
        assertThat(t4.instances()).containsExactly(
                new DeviceInstance(A, true, "", new DeviceInstance.Locality("00000000:00:1E.0")),
                new DeviceInstance(B, true, "", new DeviceInstance.Locality("00000000:00:1F.0")));
        assertThat(t4.attributes()).containsExactly(
                Map.entry("memory", Attribute.ofInt(15360, "MiB")),
                Map.entry("power", Attribute.ofInt(70, "W")),
                Map.entry("cores_clock", Attribute.ofInt(1590, "MHz")),
                Map.entry("memory_clock", Attribute.ofInt(5001, "MHz")),
                Map.entry("driver_version", Attribute.ofString("535.104.05")),
                Map.entry("display_state", Attribute.ofString("Disabled")),
                Map.entry("persistence_mode", Attribute.ofString("Enabled")));
        assertThat(groups).allSatisfy((group) -> assertThat(group.problems()).isEmpty());
        // the RTX reports no power limit: the attribute is left out rather than invented
        assertThat(groups.get(1).attributes()).doesNotContainKey("power").containsEntry("memory", Attribute.ofInt(24576, "MiB"));
    }

    @Test
    void statsUseNomadNamesAndUnitsAndUnavailableValuesBecomeNA() throws Exception {
        NvidiaDevicePlugin plugin = plugin(Sleeper.system());
        plugin.fingerprintOnce();
        List<DeviceGroupStats> groups = plugin.statsOnce();

        // second call: GPU-bbbb is gone
        assertThat(groups).extracting(DeviceGroupStats::name).containsExactly("Tesla T4", "NVIDIA GeForce RTX 3090");
        assertThat(groups.getFirst().instanceStats()).containsOnlyKeys(A);
        DeviceStats a = groups.getFirst().instanceStats().get(A);
        assertThat(a.timestamp()).isEqualTo(NOW);
        assertThat(a.summary()).isEqualTo(StatValue.ofIntFraction(1024, 15360, "MiB", "UsedMemory / TotalMemory"));
        assertThat(a.stats().attributes()).containsEntry("Power usage", StatValue.ofIntFraction(27, 70, "W", "Power usage / Power limit"))
                .containsEntry("GPU utilization", StatValue.ofInt(37, "%", "GPU utilization"))
                .containsEntry("Memory utilization", StatValue.ofInt(12, "%", "Memory utilization"))
                .containsEntry("Temperature", StatValue.ofInt(41, "C", "Temperature"))
                .containsEntry("ECC L1 errors", StatValue.ofInt(0, "#", "ECC L1 errors"))
                .containsEntry("ECC memory errors", StatValue.ofInt(2, "#", "ECC memory errors"));

        DeviceStats c = groups.get(1).instanceStats().get(C);
        assertThat(c.stats().attributes()).containsEntry("Power usage", StatValue.notAvailable("W", "Power usage / Power limit"))
                .containsEntry("ECC L1 errors", StatValue.notAvailable("#", "ECC L1 errors"))
                .containsEntry("ECC L2 errors", StatValue.notAvailable("#", "ECC L2 errors"))
                .containsEntry("ECC memory errors", StatValue.notAvailable("#", "ECC memory errors"))
                .containsEntry("GPU utilization", StatValue.ofInt(100, "%", "GPU utilization"));

        String json = JsonMapper.builder().build().writeValueAsString(c.stats().attributes().get("Power usage"));
        assertThat(json).isEqualTo("{\"StringVal\":\"N/A\",\"Unit\":\"W\",\"Desc\":\"Power usage / Power limit\"}");
    }

    @Test
    void reserveSetsVisibleDevicesAndRefusesUnknownIds() throws Exception {
        NvidiaDevicePlugin plugin = plugin(Sleeper.system());
        assertThatThrownBy(() -> plugin.reserve(List.of(A))).hasMessage("unknown device IDs: " + A);
        plugin.fingerprintOnce();
        assertThat(plugin.reserve(List.of(A, C)).envs()).containsExactly(Map.entry("NVIDIA_VISIBLE_DEVICES", A + "," + C));
        assertThatThrownBy(() -> plugin.reserve(List.of(A, "GPU-x", "GPU-y"))).hasMessage("unknown device IDs: GPU-x,GPU-y");
    }

    @Test
    void ignoredGpusAreNeitherFingerprintedNorReported() throws Exception {
        NvidiaDevicePlugin plugin = new NvidiaDevicePlugin(smi.toString(), Duration.ofMillis(50), Duration.ofSeconds(10), List.of(C),
                Sleeper.system(), Clock.fixed(NOW, ZoneOffset.UTC));
        assertThat(plugin.fingerprintOnce()).extracting(DeviceGroup::name).containsExactly("Tesla T4");
        assertThat(plugin.statsOnce()).extracting(DeviceGroupStats::name).containsExactly("Tesla T4");
        assertThatThrownBy(() -> plugin.reserve(List.of(C))).hasMessage("unknown device IDs: " + C);
    }

    @Test
    void aFailingNvidiaSmiIsAnError() throws Exception {
        Files.writeString(dir.resolve("fail"), "");
        assertThatThrownBy(() -> plugin(Sleeper.system()).fingerprintOnce())
                .hasMessageContaining("exited with 9: NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.");
    }

    @Test
    void underTheManagerADisappearingGpuChangesTheFingerprintAndStatsReachTheIndex() {
        DeviceProperties properties = new DeviceProperties(Duration.ofMillis(50), Duration.ofSeconds(10),
                new DeviceProperties.Example(false, null, "berth", "file", "example", Duration.ofSeconds(1)),
                new DeviceProperties.Nvidia(true, smi.toString(), Duration.ofMillis(50)));
        List<List<DeviceGroup>> published = new CopyOnWriteArrayList<>();
        DeviceStatsIndex index = new DeviceStatsIndex();
        DeviceManager manager = new DeviceManager(List.of(plugin(Sleeper.system())), properties, Sleeper.system(), index,
                List.of(published::add));
        manager.start();
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> published.size() >= 2);
            assertThat(published.get(0).getFirst().instances()).extracting(DeviceInstance::id).containsExactly(A, B);
            assertThat(published.get(1).getFirst().instances()).extracting(DeviceInstance::id).containsExactly(A);
            // from the second nvidia-smi call on, GPU-bbbb is gone from the statistics too
            await().atMost(Duration.ofSeconds(20)).until(() -> index.get(A) != null && index.get(C) != null && index.get(B) == null);
            assertThat(index.get(C).group().name()).isEqualTo("NVIDIA GeForce RTX 3090");
        }
        finally {
            manager.stop();
        }
    }
}
