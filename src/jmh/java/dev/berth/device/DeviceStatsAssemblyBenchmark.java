package dev.berth.device;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Per-allocation device statistics for 1,000 tasks (100 allocations × 10 tasks, 8 instances each) on a host with 8,192
 * device instances: Berth's index lookup + merge versus Nomad's per-task walk over every host device group +
 * concatenation ({@link NomadStyleDeviceStatsWalk}). {@code groups} is how the 8,192 instances are split into device
 * groups (8 big groups … one group per instance).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DeviceStatsAssemblyBenchmark {

    static final int HOST_INSTANCES = 8192;

    static final int ALLOCS = 100;

    static final int TASKS_PER_ALLOC = 10;

    static final int INSTANCES_PER_TASK = 8;

    @Param({ "8", "1024", "8192" })
    int groups;

    List<DeviceGroupStats> hostStats;

    DeviceStatsIndex index;

    /** alloc → task → instance IDs (what Berth's allocator keeps). */
    List<List<List<String>>> taskIds;

    /** alloc → task → group → IDs (what Nomad's AllocatedDeviceResource holds). */
    List<List<Map<DeviceGroupKey, List<String>>>> taskAllocated;

    @Setup
    public void setUp() {
        int perGroup = HOST_INSTANCES / groups;
        hostStats = new ArrayList<>();
        List<Map.Entry<DeviceGroupKey, String>> flat = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            DeviceGroupKey key = new DeviceGroupKey("nvidia", "gpu", "model-" + g);
            Map<String, DeviceStats> instances = new LinkedHashMap<>();
            for (int i = 0; i < perGroup; i++) {
                String id = "GPU-" + g + "-" + i;
                Map<String, StatValue> values = Map.of("GPU utilization", StatValue.ofInt(i % 100, "%", ""),
                        "Memory state", StatValue.ofIntFraction(i, 16384, "MiB", ""));
                instances.put(id, new DeviceStats(values.get("Memory state"), StatObject.of(values), Instant.EPOCH));
                flat.add(Map.entry(key, id));
            }
            hostStats.add(DeviceGroupStats.of(key, instances));
        }
        index = new DeviceStatsIndex();
        index.update("nvidia", hostStats);

        taskIds = new ArrayList<>();
        taskAllocated = new ArrayList<>();
        int next = 0;
        for (int a = 0; a < ALLOCS; a++) {
            List<List<String>> ids = new ArrayList<>();
            List<Map<DeviceGroupKey, List<String>>> allocated = new ArrayList<>();
            for (int t = 0; t < TASKS_PER_ALLOC; t++) {
                List<String> mine = new ArrayList<>();
                Map<DeviceGroupKey, List<String>> byGroup = new LinkedHashMap<>();
                for (int i = 0; i < INSTANCES_PER_TASK; i++) {
                    Map.Entry<DeviceGroupKey, String> pick = flat.get(next++);
                    mine.add(pick.getValue());
                    byGroup.computeIfAbsent(pick.getKey(), (k) -> new ArrayList<>()).add(pick.getValue());
                }
                ids.add(mine);
                allocated.add(byGroup);
            }
            taskIds.add(ids);
            taskAllocated.add(allocated);
        }
    }

    @Benchmark
    public int berthIndexLookup() {
        int groupsOut = 0;
        for (List<List<String>> alloc : taskIds) {
            List<List<DeviceGroupStats>> perTask = new ArrayList<>(alloc.size());
            for (List<String> ids : alloc) {
                perTask.add(index.lookup(ids));
            }
            groupsOut += DeviceStatsIndex.merge(perTask).size();
        }
        return groupsOut;
    }

    @Benchmark
    public int nomadStyleWalk() {
        int groupsOut = 0;
        for (List<Map<DeviceGroupKey, List<String>>> alloc : taskAllocated) {
            List<List<DeviceGroupStats>> perTask = new ArrayList<>(alloc.size());
            for (Map<DeviceGroupKey, List<String>> allocated : alloc) {
                perTask.add(NomadStyleDeviceStatsWalk.taskStats(allocated, hostStats));
            }
            groupsOut += NomadStyleDeviceStatsWalk.concatenate(perTask).size();
        }
        return groupsOut;
    }
}
