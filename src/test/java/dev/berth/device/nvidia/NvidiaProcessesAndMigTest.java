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

import dev.berth.config.Sleeper;
import dev.berth.device.Attribute;
import dev.berth.device.DeviceGroup;
import dev.berth.device.DeviceGroupStats;
import dev.berth.device.DeviceInstance;
import dev.berth.device.DeviceProcess;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Compute processes, pmon and MIG through the stand-in nvidia-smi, and the parsers on the real tool's output. */
class NvidiaProcessesAndMigTest {

    static final String A = "GPU-aaaaaaaa-1111-2222-3333-444444444444";

    static final String C = "GPU-cccccccc-1111-2222-3333-444444444444";

    static final String MIG_NEW = "MIG-1c2b8e41-5c8b-5a3d-9a1e-3f2b1c0d9e8f";

    static final String MIG_LEGACY = "MIG-GPU-aaaaaaaa-1111-2222-3333-444444444444/7/0";

    @TempDir
    Path dir;

    private Path smi;

    @BeforeEach
    void installFixture() throws IOException {
        smi = install(dir);
        Files.writeString(dir.resolve("calls"), "5"); // GPU-bbbb is gone from the start
    }

    /** Copies the stand-in into {@code dir} as an executable {@code nvidia-smi}. */
    static Path install(Path dir) throws IOException {
        Path smi = dir.resolve("nvidia-smi");
        try (InputStream in = NvidiaProcessesAndMigTest.class.getResourceAsStream("/nvidia/fake-nvidia-smi.sh")) {
            Files.copy(in, smi);
        }
        Files.setPosixFilePermissions(smi, PosixFilePermissions.fromString("rwxr-xr-x"));
        return smi;
    }

    private NvidiaDevicePlugin plugin() {
        return new NvidiaDevicePlugin(smi.toString(), Duration.ofMillis(50), Duration.ofSeconds(10), Sleeper.system(),
                Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
    }

    @Test
    void statisticsCarryEachGpusComputeProcessesWithPmonUtilization() throws Exception {
        Files.writeString(dir.resolve("compute-apps"), "4242, " + A + ", 1536\n4243, " + A + ", [N/A]\n77, " + C + ", 20000\n");
        Files.writeString(dir.resolve("pmon"), "    0       4242     C     61      9      -      -      -      -    python3        \n"
                + "    2         77     C      -      -      -      -      -      -    blender        \n");
        NvidiaDevicePlugin plugin = plugin().withProcessStats(true, true);
        plugin.fingerprintOnce();

        List<DeviceGroupStats> groups = plugin.statsOnce();

        assertThat(groups.getFirst().instanceStats().get(A).processes()).containsExactly(
                new DeviceProcess(4242, 1536L, 61L), new DeviceProcess(4243, null, null));
        assertThat(groups.get(1).instanceStats().get(C).processes()).containsExactly(new DeviceProcess(77, 20000L, null));
        // processes are not part of Nomad's JSON
        assertThat(tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(groups.getFirst().instanceStats().get(A)))
                .doesNotContain("4242").doesNotContainIgnoringCase("process");
    }

    @Test
    void withoutProcessStatsNoProcessesAreRead() throws Exception {
        Files.writeString(dir.resolve("compute-apps"), "garbage\n");
        NvidiaDevicePlugin plugin = plugin().withProcessStats(false, false);
        assertThat(plugin.statsOnce().getFirst().instanceStats().get(A).processes()).isEmpty();
        // with them on, output that is not the tool's format is an error of the statistics call (retried with backoff)
        assertThatThrownBy(() -> plugin().statsOnce()).hasMessageContaining("compute-apps line has 1 fields");
    }

    @Test
    void aGpuInMigModeIsOfferedAsItsMigDevicesWithTheParentAsAttribute() throws Exception {
        Files.writeString(dir.resolve("mig"), "  MIG 3g.20gb     Device  0: (UUID: " + MIG_NEW + ")\n"
                + "  MIG 1g.5gb      Device  1: (UUID: " + MIG_LEGACY + ")\n");
        NvidiaDevicePlugin plugin = plugin();

        List<DeviceGroup> groups = plugin.fingerprintOnce();

        assertThat(groups).extracting(DeviceGroup::name).containsExactly("NVIDIA GeForce RTX 3090",
                "NVIDIA A100-SXM4-40GB MIG 3g.20gb", "NVIDIA A100-SXM4-40GB MIG 1g.5gb");
        DeviceInstance mig = groups.get(1).instances().getFirst();
        assertThat(mig.id()).isEqualTo(MIG_NEW);
        assertThat(mig.attributes()).containsEntry("parent_uuid", Attribute.ofString(A)).containsEntry("parent_index", Attribute.ofInt(0, null));
        assertThat(mig.locality().pciBusId()).isEqualTo("00000000:00:1E.0");
        assertThat(groups.get(1).attributes()).containsEntry("mig_profile", Attribute.ofString("3g.20gb")).doesNotContainKey("memory");
        assertThat(groups).allSatisfy((group) -> assertThat(group.problems()).isEmpty());
        // the whole GPU is not offered; its MIG devices are reservable
        assertThat(groups).flatExtracting(DeviceGroup::instances).extracting(DeviceInstance::id).doesNotContain(A);
        assertThat(plugin.reserve(List.of(MIG_NEW)).envs()).containsEntry("NVIDIA_VISIBLE_DEVICES", MIG_NEW);
        // dcgm-exporter names: GPU index, and index.gpu-instance where the (legacy) MIG UUID tells the GPU instance
        assertThat(plugin.dcgmNames()).containsExactlyInAnyOrderEntriesOf(Map.of(C, "2", MIG_LEGACY, "0.7"));
        // the GPU-level statistics of a MIG parent belong to no offered instance
        assertThat(plugin.statsOnce()).extracting(DeviceGroupStats::name).containsExactly("NVIDIA GeForce RTX 3090");
        // and a Nomad client reading the node sees the extension only on MIG instances
        String json = tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(groups);
        assertThat(json).contains("\"Attributes\":{\"parent_uuid\":{\"String\":\"" + A + "\"}");
        assertThat(tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(groups.getFirst().instances().getFirst()))
                .doesNotContain("Attributes");
    }

    @Test
    void parsersReadTheRealToolsOutput() {
        assertThat(SmiProcesses.parseComputeApps("")).isEmpty();
        assertThat(SmiProcesses.parseComputeApps("12, GPU-x, 100\n13, GPU-x, [N/A]\n")).containsExactly(
                new SmiProcesses.ComputeApp(12, "GPU-x", 100L), new SmiProcesses.ComputeApp(13, "GPU-x", null));
        // pmon of older drivers has no jpg/ofa columns; columns are found by the header
        Map<SmiProcesses.PmonKey, SmiProcesses.PmonRow> old = SmiProcesses.parsePmon("""
                # gpu        pid  type    sm   mem   enc   dec   command
                # Idx          #   C/G     %     %     %     %   name
                    0      12345     C    45    12     -     -   python
                    1          -     -     -     -     -     -   -
                """);
        assertThat(old).containsExactly(Map.entry(new SmiProcesses.PmonKey(0, 12345), new SmiProcesses.PmonRow(45L, 12L)));
        assertThat(SmiMig.parse("""
                GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-5d5ba0d6-d33d-2b2c-524d-9e3d8d2b8a77)
                  MIG 1g.5gb      Device  0: (UUID: MIG-c6d4f1ef-42e4-5de3-91c7-45d71c87eb3f)
                GPU 1: NVIDIA A100-SXM4-40GB (UUID: GPU-11111111-d33d-2b2c-524d-9e3d8d2b8a77)
                """)).containsExactly(Map.entry("GPU-5d5ba0d6-d33d-2b2c-524d-9e3d8d2b8a77",
                List.of(new SmiMig.MigDevice("MIG-c6d4f1ef-42e4-5de3-91c7-45d71c87eb3f", "1g.5gb", 0, null))));
    }
}
