package dev.berth.device;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DeviceStatsIndexTest {

    private static final DeviceGroupKey T4 = new DeviceGroupKey("nvidia", "gpu", "T4");

    private static final DeviceGroupKey A100 = new DeviceGroupKey("nvidia", "gpu", "A100");

    private static DeviceStats stats(long value) {
        return new DeviceStats(StatValue.ofInt(value, "MiB", ""), StatObject.of(Map.of()), Instant.EPOCH);
    }

    @Test
    void lookupGroupsReservedInstancesAndSkipsUnknownIds() {
        DeviceStatsIndex index = new DeviceStatsIndex();
        index.update("nvidia", List.of(DeviceGroupStats.of(T4, Map.of("t1", stats(1), "t2", stats(2))),
                DeviceGroupStats.of(A100, Map.of("a1", stats(3)))));

        List<DeviceGroupStats> found = index.lookup(List.of("a1", "t2", "gone"));

        assertThat(found).containsExactly(DeviceGroupStats.of(A100, Map.of("a1", stats(3))), DeviceGroupStats.of(T4, Map.of("t2", stats(2))));
        assertThat(index.lookup(List.of())).isEmpty();
    }

    @Test
    void anUpdateReplacesEverythingThePluginReportedBefore() {
        DeviceStatsIndex index = new DeviceStatsIndex();
        index.update("nvidia", List.of(DeviceGroupStats.of(T4, Map.of("t1", stats(1), "t2", stats(2)))));
        index.update("other", List.of(DeviceGroupStats.of(A100, Map.of("a1", stats(3)))));
        index.update("nvidia", List.of(DeviceGroupStats.of(T4, Map.of("t1", stats(10)))));

        assertThat(index.get("t1").stats()).isEqualTo(stats(10));
        assertThat(index.get("t2")).isNull();
        assertThat(index.get("a1")).isNotNull();
        assertThat(index.all()).hasSize(2);
        index.clear("other");
        assertThat(index.get("a1")).isNull();
        assertThat(index.all()).containsExactly(DeviceGroupStats.of(T4, Map.of("t1", stats(10))));
    }

    @Test
    void allocTotalsMergeInstancesOfOneGroupUsedByDifferentTasks() {
        DeviceStatsIndex index = new DeviceStatsIndex();
        index.update("nvidia", List.of(DeviceGroupStats.of(T4, Map.of("t1", stats(1), "t2", stats(2)))));
        List<DeviceGroupStats> web = index.lookup(List.of("t1"));
        List<DeviceGroupStats> worker = index.lookup(List.of("t2"));

        List<DeviceGroupStats> merged = DeviceStatsIndex.merge(List.of(web, worker));

        assertThat(merged).containsExactly(DeviceGroupStats.of(T4, Map.of("t1", stats(1), "t2", stats(2))));
        // Nomad's naive concatenation gives the same group twice (seed 001)
        assertThat(NomadStyleDeviceStatsWalk.concatenate(List.of(web, worker))).hasSize(2);
    }

    @Test
    void indexLookupGivesExactlyWhatNomadsWalkGivesOnRandomHosts() {
        SplittableRandom random = new SplittableRandom(42);
        for (int round = 0; round < 20; round++) {
            int groups = 1 + random.nextInt(20);
            List<DeviceGroupStats> host = new ArrayList<>();
            List<Map.Entry<DeviceGroupKey, String>> all = new ArrayList<>();
            for (int g = 0; g < groups; g++) {
                DeviceGroupKey key = new DeviceGroupKey("v" + g % 3, "t", "m" + g);
                Map<String, DeviceStats> instances = new LinkedHashMap<>();
                int size = random.nextInt(50);
                for (int i = 0; i < size; i++) {
                    String id = "d-" + g + "-" + i;
                    instances.put(id, stats(random.nextLong()));
                    all.add(Map.entry(key, id));
                }
                host.add(DeviceGroupStats.of(key, instances));
            }
            DeviceStatsIndex index = new DeviceStatsIndex();
            index.update("p", host);

            for (int task = 0; task < 30; task++) {
                Map<DeviceGroupKey, List<String>> allocated = new HashMap<>();
                List<String> ids = new ArrayList<>();
                int count = all.isEmpty() ? 0 : random.nextInt(Math.min(10, all.size()) + 1);
                for (int i = 0; i < count; i++) {
                    Map.Entry<DeviceGroupKey, String> pick = all.get(random.nextInt(all.size()));
                    if (!ids.contains(pick.getValue())) {
                        ids.add(pick.getValue());
                        allocated.computeIfAbsent(pick.getKey(), (k) -> new ArrayList<>()).add(pick.getValue());
                    }
                }
                assertThat(asMap(index.lookup(ids))).isEqualTo(asMap(NomadStyleDeviceStatsWalk.taskStats(allocated, host)));
            }
        }
    }

    private static Map<DeviceGroupKey, Map<String, DeviceStats>> asMap(List<DeviceGroupStats> groups) {
        Map<DeviceGroupKey, Map<String, DeviceStats>> map = new HashMap<>();
        groups.forEach((group) -> map.put(group.key(), group.instanceStats()));
        return map;
    }
}
