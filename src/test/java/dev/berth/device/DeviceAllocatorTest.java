package dev.berth.device;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class DeviceAllocatorTest {

    private static final DeviceGroupKey T4 = new DeviceGroupKey("nvidia", "gpu", "Tesla T4");

    private static final DeviceGroupKey A100 = new DeviceGroupKey("nvidia", "gpu", "A100");

    private static final DeviceGroupKey FPGA = new DeviceGroupKey("xilinx", "fpga", "U250");

    private final InMemoryReservationStore store = new InMemoryReservationStore();

    private final DeviceStatsIndex index = new DeviceStatsIndex();

    private DeviceManager manager;

    private DeviceAllocator allocator;

    @BeforeEach
    void start() {
        ScriptedPlugin gpus = new ScriptedPlugin("gpus");
        ScriptedPlugin fpgas = new ScriptedPlugin("fpgas");
        QueueStream<List<DeviceGroup>> g = gpus.nextFingerprintStream();
        QueueStream<List<DeviceGroup>> f = fpgas.nextFingerprintStream();
        DeviceProperties properties = new DeviceProperties(Duration.ofSeconds(5), Duration.ofSeconds(2),
                new DeviceProperties.Example(false, null, "berth", "file", "example", Duration.ofSeconds(1)),
                new DeviceProperties.Nvidia(false, "nvidia-smi", Duration.ofMinutes(1)));
        manager = new DeviceManager(List.of(gpus, fpgas), properties, new ControlledSleeper(), index, List.of());
        manager.start();
        g.emit(List.of(
                new DeviceGroup("nvidia", "gpu", "Tesla T4", null, List.of(DeviceInstance.healthy("t1", null),
                        new DeviceInstance("t2", false, "ECC errors", null), DeviceInstance.healthy("t3", null))),
                new DeviceGroup("nvidia", "gpu", "A100", null, List.of(DeviceInstance.healthy("a1", null),
                        DeviceInstance.healthy("a2", null), DeviceInstance.healthy("a3", null)))));
        f.emit(List.of(new DeviceGroup("xilinx", "fpga", "U250", null, List.of(DeviceInstance.healthy("f1", null)))));
        await().until(() -> manager.devices().size() == 3);
        allocator = new DeviceAllocator(manager, store);
    }

    @AfterEach
    void stop() {
        manager.stop();
    }

    private static TaskRef task(String alloc, String task) {
        return new TaskRef(alloc, "job", task);
    }

    @Test
    void requestNamesMatchTypeVendorTypeOrModel() {
        assertThat(new DeviceRequest("gpu", 1).matches(T4)).isTrue();
        assertThat(new DeviceRequest("nvidia/gpu", 1).matches(T4)).isTrue();
        assertThat(new DeviceRequest("nvidia/gpu/Tesla T4", 1).matches(T4)).isTrue();
        assertThat(new DeviceRequest("nvidia/gpu/A100", 1).matches(T4)).isFalse();
        assertThat(new DeviceRequest("amd/gpu", 1).matches(T4)).isFalse();
        assertThat(new DeviceRequest("fpga", 1).matches(T4)).isFalse();
        assertThat(new DeviceRequest("gpu", null).count()).isEqualTo(1);
        assertThatThrownBy(() -> new DeviceRequest(" ", 1)).hasMessage("device name must be specified");
    }

    @Test
    void picksHealthyUnreservedInstancesOfOneGroupAndPersistsThem() throws Exception {
        List<AllocatedDevice> web = allocator.allocate(task("alloc1", "web"), List.of(new DeviceRequest("nvidia/gpu/Tesla T4", 2)));
        // t2 is unhealthy, so the two healthy T4s are picked
        assertThat(web).containsExactly(new AllocatedDevice(T4, List.of("t1", "t3")));
        assertThat(store.rows).extracting(DeviceReservationStore.Held::instanceId).containsExactly("t1", "t3");

        // no healthy T4 is left: a plain "gpu" request goes to the A100s
        assertThat(allocator.allocate(task("alloc2", "train"), List.of(new DeviceRequest("gpu", 2))))
                .containsExactly(new AllocatedDevice(A100, List.of("a1", "a2")));
        assertThatThrownBy(() -> allocator.allocate(task("alloc3", "x"), List.of(new DeviceRequest("nvidia/gpu/Tesla T4", 1))))
                .isInstanceOf(DeviceAllocationException.class)
                .hasMessage("not enough devices for \"nvidia/gpu/Tesla T4\": need 1, at most 0 healthy and unreserved in one group");
        assertThatThrownBy(() -> allocator.allocate(task("alloc3", "x"), List.of(new DeviceRequest("tpu", 1))))
                .hasMessage("no device matches \"tpu\"");
        assertThat(allocator.holder("a1")).contains(new DeviceAllocator.Holder(task("alloc2", "train"), A100));
    }

    @Test
    void allocationIsIdempotentPerTask() throws Exception {
        List<AllocatedDevice> first = allocator.allocate(task("alloc1", "web"), List.of(new DeviceRequest("fpga", 1)));
        assertThat(allocator.allocate(task("alloc1", "web"), List.of(new DeviceRequest("fpga", 1)))).isEqualTo(first);
        assertThat(store.rows).hasSize(1);
    }

    @Test
    void aWholeAllocIsAdmittedOrNothingIsReserved() throws Exception {
        Map<String, List<DeviceRequest>> tasks = new LinkedHashMap<>();
        tasks.put("web", List.of(new DeviceRequest("fpga", 1)));
        tasks.put("train", List.of(new DeviceRequest("nvidia/gpu/A100", 4)));

        assertThatThrownBy(() -> allocator.allocateAll("alloc1", "job", tasks)).isInstanceOf(DeviceAllocationException.class)
                .hasMessage("task \"train\": not enough devices for \"nvidia/gpu/A100\": need 4, at most 3 healthy and unreserved in one group");
        assertThat(store.rows).isEmpty();
        assertThat(allocator.holder("f1")).isEmpty();

        tasks.put("train", List.of(new DeviceRequest("nvidia/gpu/A100", 3)));
        assertThat(allocator.allocateAll("alloc1", "job", tasks)).containsOnlyKeys("web", "train");
        assertThat(store.rows).hasSize(4);
    }

    @Test
    void allocateAllMixesAssignedAndRequestedDevicesAllOrNothing() throws Exception {
        Map<String, List<DeviceRequest>> tasks = new java.util.LinkedHashMap<>();
        tasks.put("web", List.of(new DeviceRequest("fpga", 1)));
        tasks.put("train", List.of(new DeviceRequest("nvidia/gpu/A100", 1)));
        // "train" is assigned a taken instance: the whole alloc is refused, the fpga picked for "web" is given back.
        allocator.allocate(task("other", "x"), List.of(), List.of(new AllocatedDevice(A100, List.of("a2"))));
        assertThatThrownBy(() -> allocator.allocateAll("alloc1", "job", tasks,
                Map.of("train", List.of(new AllocatedDevice(A100, List.of("a2"))))))
                .hasMessage("task \"train\": device \"a2\" is already reserved by allocation other task x");
        assertThat(allocator.holder("f1")).isEmpty();
        assertThat(allocator.allocated("alloc1", "web")).isEmpty();

        // Assigned devices win over the task's requests; a task may be assigned devices without requesting any.
        Map<String, List<AllocatedDevice>> got = allocator.allocateAll("alloc1", "job", tasks,
                Map.of("train", List.of(new AllocatedDevice(A100, List.of("a3"))), "side", List.of(new AllocatedDevice(T4, List.of("t3")))));
        assertThat(got).containsOnlyKeys("web", "train", "side");
        assertThat(got.get("train")).containsExactly(new AllocatedDevice(A100, List.of("a3")));
        assertThat(got.get("web")).containsExactly(new AllocatedDevice(new DeviceGroupKey("xilinx", "fpga", "U250"), List.of("f1")));
        assertThat(allocator.holder("t3")).map((h) -> h.task().task()).contains("side");
    }

    @Test
    void honoursAssignedIdsButRefusesUnknownUnhealthyOrTakenOnes() throws Exception {
        assertThat(allocator.allocate(task("alloc1", "web"), List.of(), List.of(new AllocatedDevice(A100, List.of("a3")))))
                .containsExactly(new AllocatedDevice(A100, List.of("a3")));
        assertThatThrownBy(() -> allocator.allocate(task("alloc2", "web"), List.of(), List.of(new AllocatedDevice(A100, List.of("a3")))))
                .hasMessage("device \"a3\" is already reserved by allocation alloc1 task web");
        assertThatThrownBy(() -> allocator.allocate(task("alloc2", "web"), List.of(), List.of(new AllocatedDevice(T4, List.of("t2")))))
                .hasMessage("device \"t2\" is unhealthy: ECC errors");
        assertThatThrownBy(() -> allocator.allocate(task("alloc2", "web"), List.of(), List.of(new AllocatedDevice(T4, List.of("a1")))))
                .hasMessage("operation on unknown device(s) \"nvidia/gpu/Tesla T4\" ([a1]): failed to reserve devices");
        assertThat(store.rows).hasSize(1);
    }

    @Test
    void aFailedWriteReservesNothing() {
        store.failWrites = true;
        assertThatThrownBy(() -> allocator.allocate(task("alloc1", "web"), List.of(new DeviceRequest("fpga", 1))))
                .hasMessage("failed to persist device reservation: disk full");
        assertThat(allocator.holder("f1")).isEmpty();
    }

    @Test
    void releaseFreesTheInstancesAndReservationsSurviveARestart() throws Exception {
        allocator.allocate(task("alloc1", "web"), List.of(new DeviceRequest("fpga", 1)));
        allocator.allocate(task("alloc2", "train"), List.of(new DeviceRequest("nvidia/gpu/A100", 2)));

        DeviceAllocator restarted = new DeviceAllocator(manager, store);
        assertThat(restarted.allocated("alloc2", "train")).containsExactly(new AllocatedDevice(A100, List.of("a1", "a2")));
        assertThat(restarted.holder("f1")).isPresent();

        restarted.release("alloc1");
        restarted.release("alloc1");
        assertThat(restarted.holder("f1")).isEmpty();
        assertThat(store.rows).hasSize(2);
        assertThat(restarted.allocate(task("alloc3", "web"), List.of(new DeviceRequest("fpga", 1))))
                .containsExactly(new AllocatedDevice(FPGA, List.of("f1")));
    }

    @Test
    void prepareReservesThroughThePluginsAndMergesTheResults() throws Exception {
        allocator.allocate(task("alloc1", "web"), List.of(new DeviceRequest("fpga", 1), new DeviceRequest("nvidia/gpu/A100", 1)));
        Reservation reservation = allocator.prepare("alloc1", "web");
        // both plugins were asked; on an env clash the later one wins, as in Nomad's device hook
        assertThat(reservation.envs()).containsEntry("PLUGIN", "gpus").containsEntry("IDS", "a1");
        assertThat(allocator.prepare("alloc1", "nobody")).isEqualTo(Reservation.EMPTY);
    }

    @Test
    void taskAndAllocStatsAreLookupsOfTheReservedInstances() throws Exception {
        allocator.allocate(task("alloc1", "web"), List.of(new DeviceRequest("nvidia/gpu/A100", 1)));
        allocator.allocate(task("alloc1", "worker"), List.of(new DeviceRequest("nvidia/gpu/A100", 1)));
        DeviceStats s1 = new DeviceStats(StatValue.ofInt(1, "MiB", ""), null, Instant.EPOCH);
        DeviceStats s2 = new DeviceStats(StatValue.ofInt(2, "MiB", ""), null, Instant.EPOCH);
        DeviceStats s3 = new DeviceStats(StatValue.ofInt(3, "MiB", ""), null, Instant.EPOCH);
        index.update("gpus", List.of(DeviceGroupStats.of(A100, Map.of("a1", s1, "a2", s2, "a3", s3))));

        assertThat(allocator.taskStats("alloc1", "web")).containsExactly(DeviceGroupStats.of(A100, Map.of("a1", s1)));
        assertThat(allocator.allocStats("alloc1")).containsExactly(DeviceGroupStats.of(A100, Map.of("a1", s1, "a2", s2)));
        assertThat(allocator.allocStats("unknown")).isEmpty();
    }
}
