package dev.berth.alloc.hooks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.PrestartResult;
import dev.berth.config.Sleeper;
import dev.berth.device.DeviceAllocator;
import dev.berth.device.DeviceGroup;
import dev.berth.device.DeviceGroupStats;
import dev.berth.device.DeviceManager;
import dev.berth.device.DevicePlugin;
import dev.berth.device.DeviceProperties;
import dev.berth.device.DeviceRequest;
import dev.berth.device.DeviceReservationStore;
import dev.berth.device.DeviceStatsIndex;
import dev.berth.device.DeviceStream;
import dev.berth.device.Reservation;
import dev.berth.device.TaskRef;
import dev.berth.device.example.ExampleDevicePlugin;
import dev.berth.driver.TaskDevice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The devices prestart hook over the real example plugin (files in a temp dir): the plugin is asked once, its env and
 * mounts go to the task and driver, and restarts and agent restarts re-apply them from the persisted state without a
 * second reserve.
 */
class DevicesHookTest {

    @TempDir
    Path tmp;

    private final AtomicInteger reserves = new AtomicInteger();

    private final List<DeviceReservationStore.Held> held = new ArrayList<>();

    private final DeviceReservationStore store = new DeviceReservationStore() {
        @Override
        public List<Held> loadAll() {
            return List.copyOf(held);
        }

        @Override
        public void saveAll(List<Held> more) {
            held.addAll(more);
        }

        @Override
        public void deleteAlloc(String allocId) {
            held.removeIf(h -> h.task().allocId().equals(allocId));
        }
    };

    private DeviceManager manager;

    @BeforeEach
    void start() throws Exception {
        Path devices = Files.createDirectories(tmp.resolve("devices"));
        Files.writeString(devices.resolve("dev0"), "healthy\n");
        var example = new DeviceProperties.Example(true, devices, "berth", "file", "example", Duration.ofMillis(50));
        DevicePlugin plugin = new ExampleDevicePlugin(example, Sleeper.system(), Clock.systemUTC());
        // Counts the plugin's reserve calls; everything else goes straight to the real plugin.
        DevicePlugin counting = new DevicePlugin() {
            @Override
            public String name() {
                return plugin.name();
            }

            @Override
            public DeviceStream<List<DeviceGroup>> fingerprint() throws Exception {
                return plugin.fingerprint();
            }

            @Override
            public DeviceStream<List<DeviceGroupStats>> stats(Duration interval) throws Exception {
                return plugin.stats(interval);
            }

            @Override
            public Reservation reserve(List<String> ids) throws Exception {
                reserves.incrementAndGet();
                return plugin.reserve(ids);
            }
        };
        manager = new DeviceManager(List.of(counting), new DeviceProperties(Duration.ofSeconds(5), Duration.ofSeconds(5), example,
                new DeviceProperties.Nvidia(false, "nvidia-smi", Duration.ofMinutes(1))), Sleeper.system(), new DeviceStatsIndex(), List.of());
        manager.start();
        await().until(() -> !manager.devices().isEmpty());
    }

    @AfterEach
    void stop() {
        manager.stop();
    }

    private TaskHookContext context(String task) throws Exception {
        TaskSpec spec = new TaskSpec(task, "raw_exec", null, null, null, null, null, null, null, null, null, null);
        TaskGroupSpec group = new TaskGroupSpec("g", null, List.of(spec), null, null, null, null);
        AllocationSpec alloc = new AllocationSpec("a1", "j.g[0]", "default", "j", null, "g", "run", 1L, null, null);
        Path taskDir = Files.createDirectories(tmp.resolve("alloc").resolve(task));
        return new TaskHookContext(alloc, group, spec, tmp.resolve("alloc"), taskDir, null, e -> { });
    }

    /** The hook reserves and reports done; the hook executor keeps its env and devices for later starts (DoneHookStateTest). */
    @Test
    void reservesAndReportsDoneWithTheEnvAndMounts() throws Exception {
        DeviceAllocator allocator = new DeviceAllocator(manager, store);
        allocator.allocate(new TaskRef("a1", "j", "t"), List.of(new DeviceRequest("file", 1)));
        String hostPath = tmp.resolve("devices").resolve("dev0").toAbsolutePath().toString();
        List<TaskDevice> expectedDevices = List.of(new TaskDevice.Mount(hostPath, "/dev/berth-example/dev0", true));

        PrestartResult first = new DevicesHook(allocator).prestart(context("t"));
        assertThat(first.env()).isEqualTo(Map.of(ExampleDevicePlugin.ENV, "dev0"));
        assertThat(first.devices()).isEqualTo(expectedDevices);
        assertThat(first.done()).isTrue();
        assertThat(reserves).hasValue(1);
        assertThat(tmp.resolve("alloc/t/private")).as("no private state file any more").doesNotExist();
    }

    @Test
    void taskWithoutDevicesGetsNothingAndWritesNoState() throws Exception {
        PrestartResult result = new DevicesHook(new DeviceAllocator(manager, store)).prestart(context("plain"));
        assertThat(result.env()).isEmpty();
        assertThat(result.devices()).isEmpty();
        assertThat(reserves).hasValue(0);
        assertThat(tmp.resolve("alloc/plain/private")).doesNotExist();
    }
}
