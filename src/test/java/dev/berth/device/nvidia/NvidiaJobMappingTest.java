package dev.berth.device.nvidia;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import dev.berth.config.Sleeper;
import dev.berth.device.DeviceAllocator;
import dev.berth.device.DeviceGroupKey;
import dev.berth.device.DeviceManager;
import dev.berth.device.DeviceProperties;
import dev.berth.device.DeviceProperties.JobMappingFormat;
import dev.berth.device.DeviceRequest;
import dev.berth.device.DeviceReservationStore;
import dev.berth.device.DeviceStatsIndex;
import dev.berth.device.TaskRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dcgm-exporter mapping directory, read back the way dcgm-exporter's {@code hpcMapper} reads it (only files named
 * {@code <gpu>} or {@code <gpu>.<gpu instance>}, one job per line).
 */
class NvidiaJobMappingTest {

    private static final String A = NvidiaProcessesAndMigTest.A;

    private static final String C = NvidiaProcessesAndMigTest.C;

    @TempDir
    Path smiDir;

    @TempDir
    Path mappingDir;

    private DeviceManager manager;

    @AfterEach
    void stop() {
        if (manager != null) {
            manager.stop();
        }
        // a stop abandons a call in flight: the stand-in nvidia-smi (a script) is killed, but a child it started (the
        // `mv` of its call counter) may still write into smiDir while JUnit deletes it; wait until none is left
        await().atMost(Duration.ofSeconds(30)).until(() ->
                new ProcessBuilder("pgrep", "-f", "--", smiDir.toString()).start().waitFor() == 1);
    }

    /** Keeps reservations in memory, as the H2 store keeps them across restarts. */
    static final class Store implements DeviceReservationStore {

        final List<Held> rows = new CopyOnWriteArrayList<>();

        @Override
        public List<Held> loadAll() {
            return List.copyOf(rows);
        }

        @Override
        public void saveAll(List<Held> held) {
            rows.addAll(held);
        }

        @Override
        public void deleteAlloc(String allocId) {
            rows.removeIf((row) -> row.task().allocId().equals(allocId));
        }
    }

    /** What dcgm-exporter's hpcMapper makes of the directory: file name → jobs (its label values). */
    static Map<String, List<String>> dcgmExporterView(Path dir) throws IOException {
        Map<String, List<String>> jobs = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                if (Files.isRegularFile(file) && name.matches("^\\d+(\\.\\d+)?$")) {
                    jobs.put(name, Files.readAllLines(file));
                }
            }
        }
        return jobs;
    }

    private DeviceAllocator start(Store store, JobMappingFormat format) throws IOException {
        Path smi = NvidiaProcessesAndMigTest.install(smiDir);
        Files.writeString(smiDir.resolve("calls"), "5");
        NvidiaDevicePlugin plugin = new NvidiaDevicePlugin(smi.toString(), Duration.ofMillis(50), Duration.ofSeconds(10),
                Sleeper.system(), Clock.systemUTC());
        NvidiaJobMapping[] mapping = new NvidiaJobMapping[1];
        DeviceProperties properties = new DeviceProperties(Duration.ofMillis(50), Duration.ofSeconds(10),
                new DeviceProperties.Example(false, null, "berth", "file", "example", Duration.ofSeconds(1)),
                new DeviceProperties.Nvidia(true, smi.toString(), Duration.ofMillis(50)));
        manager = new DeviceManager(List.of(plugin), properties, Sleeper.system(), new DeviceStatsIndex(),
                List.of((devices) -> mapping[0].devicesUpdated(devices)));
        DeviceAllocator allocator = new DeviceAllocator(manager, store);
        mapping[0] = new NvidiaJobMapping(mappingDir, format, plugin, allocator);
        manager.start();
        await().until(() -> !manager.devices().isEmpty());
        return allocator;
    }

    @Test
    void filesFollowReservationsAndReleases() throws Exception {
        DeviceAllocator allocator = start(new Store(), JobMappingFormat.ALLOC_ID);
        assertThat(dcgmExporterView(mappingDir)).isEmpty();

        allocator.allocate(new TaskRef("alloc-1", "train", "trainer"), List.of(new DeviceRequest("nvidia/gpu/Tesla T4", 1)));
        allocator.allocate(new TaskRef("alloc-2", "render", "blender"), List.of(new DeviceRequest("nvidia/gpu", 1)));
        assertThat(dcgmExporterView(mappingDir)).containsExactly(Map.entry("0", List.of("alloc-1")), Map.entry("2", List.of("alloc-2")));

        allocator.release("alloc-1");
        assertThat(dcgmExporterView(mappingDir)).containsExactly(Map.entry("2", List.of("alloc-2")));
        // no temporary files are left behind
        try (Stream<Path> files = Files.list(mappingDir)) {
            assertThat(files.map((f) -> f.getFileName().toString())).containsExactly("2");
        }
    }

    @Test
    void atStartStaleFilesGoAndPersistedReservationsAreWrittenOnceTheGpusAreKnown() throws Exception {
        Files.writeString(mappingDir.resolve("0"), "some-old-alloc\n");
        Files.writeString(mappingDir.resolve("3.1"), "another\n");
        Files.writeString(mappingDir.resolve("README"), "not ours\n");
        Store store = new Store();
        store.rows.add(new DeviceReservationStore.Held(new TaskRef("alloc-9", "train", "trainer"),
                new DeviceGroupKey("nvidia", "gpu", "NVIDIA GeForce RTX 3090"), C));

        start(store, JobMappingFormat.JOB_ALLOC_TASK);

        await().until(() -> dcgmExporterView(mappingDir).equals(Map.of("2", List.of("train/alloc-9/trainer"))));
        assertThat(mappingDir.resolve("README")).exists();
    }
}
