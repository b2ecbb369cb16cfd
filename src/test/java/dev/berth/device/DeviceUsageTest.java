package dev.berth.device;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricsNaming;
import dev.berth.support.Promtool;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Attribution of device processes to tasks, with the owners given as a map (the procfs side has its own tests and the
 * agent test runs both with real processes): per-task use in the snapshot, the stats views and the metrics of both
 * naming modes, foreign processes on reserved instances only, told once.
 */
class DeviceUsageTest {

    private static final DeviceGroupKey T4 = new DeviceGroupKey("nvidia", "gpu", "Tesla T4");

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    private final DeviceStatsIndex index = new DeviceStatsIndex();

    private final Map<Long, TaskRef> owners = new java.util.concurrent.ConcurrentHashMap<>();

    private final List<String> foreign = new CopyOnWriteArrayList<>();

    private DeviceManager manager;

    private DeviceAllocator allocator;

    private DeviceUsage usage;

    private QueueStream<List<DeviceGroup>> fingerprints;

    @AfterEach
    void stop() {
        manager.stop();
    }

    private void start(MetricsNaming naming) {
        ScriptedPlugin plugin = new ScriptedPlugin("gpus");
        fingerprints = plugin.nextFingerprintStream();
        DeviceProperties properties = new DeviceProperties(Duration.ofSeconds(5), Duration.ofSeconds(2),
                new DeviceProperties.Example(false, null, "berth", "file", "example", Duration.ofSeconds(1)),
                new DeviceProperties.Nvidia(false, "nvidia-smi", Duration.ofMinutes(1)));
        manager = new DeviceManager(List.of(plugin), properties, new ControlledSleeper(), index, List.of());
        allocator = new DeviceAllocator(manager, new InMemoryReservationStore());
        ProcessOwners port = (pids, allocIds) -> {
            Map<Long, TaskRef> result = new LinkedHashMap<>();
            pids.forEach((pid) -> {
                TaskRef owner = owners.get(pid);
                if (owner != null && allocIds.contains(owner.allocId())) {
                    result.put(pid, owner);
                }
            });
            return result;
        };
        usage = new DeviceUsage(index, allocator, port,
                List.of((id, group, process, holder) -> foreign.add(id + "/" + process.pid() + "/" + holder.allocId())));
        new DeviceUsageMetrics(new BerthMetrics(registry, naming, "node1", "node-id", "dc1", ""), usage, true);
        manager.start();
        fingerprints.emit(List.of(new DeviceGroup("nvidia", "gpu", "Tesla T4", null,
                List.of(DeviceInstance.healthy("g1", null), DeviceInstance.healthy("g2", null), DeviceInstance.healthy("g3", null)))));
        await().until(() -> manager.devices().size() == 1);
    }

    private static DeviceStats stats(DeviceProcess... processes) {
        Map<String, StatValue> values = new LinkedHashMap<>();
        values.put("Memory state", StatValue.ofIntFraction(4096, 15360, "MiB", ""));
        return new DeviceStats(values.get("Memory state"), StatObject.of(values), Instant.EPOCH, List.of(processes));
    }

    @Test
    void processesAreSummedPerTaskAndForeignOnesAreToldOnce() throws Exception {
        start(MetricsNaming.PROMETHEUS);
        TaskRef trainer = new TaskRef("a-1", "train", "trainer");
        TaskRef sidecar = new TaskRef("a-1", "train", "sidecar");
        allocator.allocate(trainer, List.of(new DeviceRequest("gpu", 2))); // g1, g2
        TaskRef other = new TaskRef("b-2", "web", "server");
        owners.put(100L, trainer);
        owners.put(101L, trainer);
        owners.put(200L, sidecar);
        owners.put(300L, other); // a task of another allocation: foreign on a-1's GPU

        index.update("gpus", List.of(DeviceGroupStats.of(T4, Map.of(
                "g1", stats(new DeviceProcess(100, 1000L, 30L), new DeviceProcess(101, 500L, 10L), new DeviceProcess(200, 250L, null),
                        new DeviceProcess(300, 64L, null), new DeviceProcess(999, null, null)),
                "g2", stats(),
                "g3", stats(new DeviceProcess(300, 128L, 5L)))))); // nobody holds g3: not judged

        DeviceUsage.Snapshot snapshot = usage.snapshot();
        assertThat(snapshot.byInstance().get("g1")).containsExactly(
                Map.entry(trainer, new DeviceUsage.Use(1500, true, 40L, 2)),
                Map.entry(sidecar, new DeviceUsage.Use(250, true, null, 1)));
        assertThat(snapshot.byInstance()).doesNotContainKeys("g2", "g3");
        assertThat(snapshot.foreign().get("g1")).extracting(DeviceProcess::pid).containsExactlyInAnyOrder(300L, 999L);
        assertThat(foreign).containsExactlyInAnyOrder("g1/300/a-1", "g1/999/a-1");

        // the task views: the holder sees its use of both its GPUs, the sibling its use of g1
        DeviceStatsView view = new DeviceStatsView(allocator, usage, manager);
        DeviceStats trainerG1 = view.taskStats("a-1", "trainer").getFirst().instanceStats().get("g1");
        assertThat(trainerG1.stats().attributes())
                .containsEntry(DeviceStatsView.TASK_MEMORY, StatValue.ofInt(1500, "MiB", "Device memory held by the task's processes"))
                .containsEntry(DeviceStatsView.TASK_UTILIZATION, StatValue.ofInt(40, "%", "Compute (SM) utilization of the task's processes"))
                .containsEntry(DeviceStatsView.TASK_PROCESSES, StatValue.ofInt(2, "#", "The task's processes on the device"))
                .containsEntry(DeviceStatsView.HEALTHY, StatValue.ofBool(true, "Whether the instance is healthy"));
        assertThat(view.taskStats("a-1", "sidecar").getFirst().instanceStats()).containsOnlyKeys("g1");
        DeviceStats allocG1 = view.allocStats("a-1").getFirst().instanceStats().get("g1");
        assertThat(allocG1.stats().nested().get("Tasks").nested()).containsOnlyKeys("trainer", "sidecar");
        assertThat(allocG1.stats().nested().get("Tasks").nested().get("sidecar").attribute(DeviceStatsView.TASK_MEMORY).numerator())
                .isEqualTo(250.0);

        String scrape = registry.scrape();
        assertThat(scrape).contains(
                "berth_device_task_memory_used_bytes{alloc_id=\"a-1\",instance=\"g1\",job=\"train\",model=\"Tesla T4\",task=\"trainer\",type=\"gpu\",vendor=\"nvidia\"} 1.572864E9",
                "berth_device_task_memory_used_bytes{alloc_id=\"a-1\",instance=\"g1\",job=\"train\",model=\"Tesla T4\",task=\"sidecar\",type=\"gpu\",vendor=\"nvidia\"} 2.62144E8",
                "berth_device_task_utilization_ratio{alloc_id=\"a-1\",instance=\"g1\",job=\"train\",model=\"Tesla T4\",task=\"trainer\",type=\"gpu\",vendor=\"nvidia\"} 0.4",
                "berth_device_foreign_processes{alloc_id=\"a-1\",instance=\"g1\",job=\"train\",model=\"Tesla T4\",task=\"trainer\",type=\"gpu\",vendor=\"nvidia\"} 2.0")
                // the sidecar's pmon share is unknown: no series rather than NaN
                .doesNotContain("berth_device_task_utilization_ratio{alloc_id=\"a-1\",instance=\"g1\",job=\"train\",model=\"Tesla T4\",task=\"sidecar\"")
                .doesNotContain("instance=\"g3\"");
        assertPromtoolAccepts(scrape);

        // the next sample: the same foreign process is not told again; the sidecar is gone, so is its series
        index.update("gpus", List.of(DeviceGroupStats.of(T4, Map.of("g1", stats(new DeviceProcess(100, 2000L, 50L),
                new DeviceProcess(300, 64L, null)), "g2", stats(), "g3", stats()))));
        assertThat(foreign).hasSize(2);
        scrape = registry.scrape();
        assertThat(scrape).doesNotContain("task=\"sidecar\"")
                .contains("berth_device_task_memory_used_bytes{alloc_id=\"a-1\",instance=\"g1\",job=\"train\",model=\"Tesla T4\",task=\"trainer\",type=\"gpu\",vendor=\"nvidia\"} 2.097152E9")
                .contains("berth_device_foreign_processes{alloc_id=\"a-1\",instance=\"g1\",job=\"train\",model=\"Tesla T4\",task=\"trainer\",type=\"gpu\",vendor=\"nvidia\"} 1.0");

        // a process that left and came back is told again
        index.update("gpus", List.of(DeviceGroupStats.of(T4, Map.of("g1", stats(new DeviceProcess(100, 2000L, 50L))))));
        index.update("gpus", List.of(DeviceGroupStats.of(T4, Map.of("g1", stats(new DeviceProcess(300, 64L, null))))));
        assertThat(foreign).hasSize(3).last().isEqualTo("g1/300/a-1");

        // released: nothing is judged or exported any more
        allocator.release("a-1");
        index.update("gpus", List.of(DeviceGroupStats.of(T4, Map.of("g1", stats(new DeviceProcess(300, 64L, null))))));
        assertThat(usage.snapshot().foreign()).isEmpty();
        assertThat(registry.scrape()).doesNotContain("berth_device_task_").doesNotContain("berth_device_foreign_processes{");
    }

    @Test
    void nomadNamingUsesNomadStyleNames() throws Exception {
        start(MetricsNaming.NOMAD);
        TaskRef trainer = new TaskRef("a-1", "train", "trainer");
        allocator.allocate(trainer, List.of(new DeviceRequest("gpu", 1)));
        owners.put(100L, trainer);
        index.update("gpus", List.of(DeviceGroupStats.of(T4, Map.of("g1", stats(new DeviceProcess(100, 1000L, 30L),
                new DeviceProcess(7, 1L, null))))));
        String scrape = registry.scrape();
        assertThat(scrape).contains("nomad_client_device_task_memory_used{alloc_id=\"a-1\",",
                "nomad_client_device_task_utilization{alloc_id=\"a-1\",", "nomad_client_device_foreign_processes{alloc_id=\"a-1\",")
                .contains("host=\"node1\"")
                .doesNotContain("berth_device_task");
        assertThat(scrape.lines().filter((line) -> line.startsWith("nomad_client_device_task_utilization{")).toList())
                .singleElement().asString().endsWith(" 30.0");
        assertPromtoolAccepts(scrape);
    }

    @Test
    void aReservedInstanceThatIsGoneOrUnhealthyShowsInTheViewsWithoutStatistics() throws Exception {
        start(MetricsNaming.PROMETHEUS);
        allocator.allocate(new TaskRef("a-1", "train", "trainer"), List.of(new DeviceRequest("gpu", 2)));
        DeviceStatsView view = new DeviceStatsView(allocator, usage, manager);
        // no statistics yet and healthy: skipped, as Nomad does
        assertThat(view.taskStats("a-1", "trainer")).isEmpty();

        fingerprints.emit(List.of(new DeviceGroup("nvidia", "gpu", "Tesla T4", null,
                List.of(new DeviceInstance("g1", false, "XID 79: GPU has fallen off the bus", null), DeviceInstance.healthy("g3", null)))));
        await().until(() -> manager.devices().getFirst().instances().size() == 2);
        Map<String, DeviceStats> instances = view.allocStats("a-1").getFirst().instanceStats();
        assertThat(instances).containsOnlyKeys("g1", "g2");
        assertThat(instances.get("g1").stats().attributes()).containsEntry(DeviceStatsView.HEALTH_DESCRIPTION,
                StatValue.ofString("XID 79: GPU has fallen off the bus", null, "Why the instance is unhealthy"));
        assertThat(instances.get("g2").stats().attributes()).containsEntry(DeviceStatsView.HEALTHY,
                StatValue.ofBool(false, "Whether the instance is healthy")).containsEntry(DeviceStatsView.HEALTH_DESCRIPTION,
                StatValue.ofString(DeviceStatsView.GONE, null, "Why the instance is unhealthy"));
        assertThat(new ArrayList<>(instances.values())).allSatisfy((stats) -> assertThat(stats.summary()).isNull());
    }

    private static void assertPromtoolAccepts(String scrape) throws Exception {
        Promtool.Result result = Promtool.checkMetrics(scrape);
        assertThat(result.exitCode()).as(result.output()).isZero();
    }
}
