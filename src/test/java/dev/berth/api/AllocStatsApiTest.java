package dev.berth.api;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code /v1/client/allocation/{id}/stats} end to end: raw_exec tasks in their cgroups, Nomad's JSON shape and rules. */
@AgentIntegrationTest
class AllocStatsApiTest {

    @LocalServerPort
    int port;

    final JsonMapper json = JsonMapper.builder().build();
    final List<String> created = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (String id : created) {
            send("DELETE", "/v1/client/allocation/" + id, null);
        }
    }

    @Test
    void runningRawExecTasksAreReportedInNomadsShapeAndSummed() throws Exception {
        String id = UUID.randomUUID().toString();
        put(id, task("idle", "sleep 300") + "," + task("busy", "while :; do :; done"));

        await().atMost(Duration.ofSeconds(30)).until(() -> stats(id, "").path("Tasks").size() == 2);
        JsonNode busy = await().atMost(Duration.ofSeconds(30)).until(() -> stats(id, ""),
                s -> s.path("Tasks").path("busy").path("ResourceUsage").path("CpuStats").path("Percent").asDouble() > 1);

        assertThat(names(busy)).containsExactly("ResourceUsage", "Tasks", "Timestamp");
        JsonNode usage = busy.path("ResourceUsage");
        assertThat(names(usage)).containsExactly("MemoryStats", "CpuStats", "DeviceStats");
        assertThat(usage.path("DeviceStats").isArray()).isTrue();
        assertThat(names(usage.path("MemoryStats"))).containsExactly("RSS", "Cache", "Swap", "MappedFile", "Usage", "MaxUsage",
                "KernelUsage", "KernelMaxUsage", "Measured");
        assertThat(names(usage.path("CpuStats"))).containsExactly("SystemMode", "UserMode", "TotalTicks", "ThrottledPeriods",
                "ThrottledTime", "Percent", "Measured");
        JsonNode idle = busy.path("Tasks").path("idle");
        // Nomad's three fields, then Berth's: the cgroup's memory event counters (and PSI on v2)
        assertThat(names(idle)).startsWith("ResourceUsage", "Timestamp", "Pids").contains("MemoryEvents");
        JsonNode memoryEvents = idle.path("MemoryEvents");
        if (dev.berth.host.cgroup.HostCgroups.version() == dev.berth.host.cgroup.CgroupVersion.V2) {
            assertThat(names(memoryEvents)).containsExactly("Low", "High", "Max", "Oom", "OomKill");
        } else {
            assertThat(names(memoryEvents)).contains("OomKill", "Failcnt", "UnderOom");
            assertThat(memoryEvents.path("UnderOom").asBoolean()).isFalse();
        }
        assertThat(memoryEvents.path("OomKill").asLong()).isZero();
        assertThat(idle.path("Pids").isNull()).isTrue(); // cgroup-backed: no per-pid entries
        assertThat(idle.path("ResourceUsage").path("DeviceStats").isNull()).isTrue();
        // every field of this host's cgroup version is really read
        assertThat(idle.path("ResourceUsage").path("MemoryStats").path("Measured").toString())
                .isEqualTo(dev.berth.host.cgroup.HostCgroups.memoryMeasuredJson());
        assertThat(strings(idle.path("ResourceUsage").path("CpuStats").path("Measured")))
                .containsExactly("System Mode", "User Mode", "Throttled Periods", "Throttled Time", "Percent");
        assertThat(idle.path("ResourceUsage").path("MemoryStats").path("Usage").asLong()).isPositive();

        // the alloc is the sum of its tasks; its timestamp the latest of theirs
        long rssSum = 0;
        long latest = 0;
        double percentSum = 0;
        for (JsonNode t : List.of(idle, busy.path("Tasks").path("busy"))) {
            rssSum += t.path("ResourceUsage").path("MemoryStats").path("RSS").asLong();
            percentSum += t.path("ResourceUsage").path("CpuStats").path("Percent").asDouble();
            latest = Math.max(latest, t.path("Timestamp").asLong());
        }
        assertThat(usage.path("MemoryStats").path("RSS").asLong()).isEqualTo(rssSum);
        assertThat(usage.path("CpuStats").path("Percent").asDouble()).isEqualTo(percentSum);
        assertThat(busy.path("Timestamp").asLong()).isEqualTo(latest);
        assertThat(latest).isGreaterThan(1_700_000_000_000_000_000L); // UnixNano

        JsonNode onlyBusy = stats(id, "?task=busy");
        assertThat(names(onlyBusy.path("Tasks"))).containsExactly("busy");
        JsonNode unknownTask = stats(id, "?task=nope");
        assertThat(unknownTask.path("Tasks").isEmpty()).isTrue();
        assertThat(unknownTask.path("ResourceUsage").path("MemoryStats").path("Measured").isNull()).isTrue();
    }

    @Test
    void anUnknownAllocationIs404WithNomadsText() throws Exception {
        HttpResponse<String> r = send("GET", "/v1/client/allocation/nope/stats", null);

        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(json.readTree(r.body()).path("detail").asString()).isEqualTo("Unknown allocation \"nope\"");
    }

    @Test
    void stoppedTasksLeaveTheStats() throws Exception {
        String id = UUID.randomUUID().toString();
        put(id, task("idle", "sleep 300"));
        await().atMost(Duration.ofSeconds(30)).until(() -> stats(id, "").path("Tasks").size() == 1);

        HttpResponse<String> stop = send("PUT", "/v1/client/allocation/" + id, alloc(id, 2, "stop", task("idle", "sleep 300")));
        assertThat(stop.statusCode()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(30)).until(() -> stats(id, "").path("Tasks").isEmpty());
        assertThat(stats(id, "").path("Timestamp").asLong()).isZero();
    }

    @Test
    void filteredAndUnfilteredResponsesStayApartAndFollowEveryTick() throws Exception {
        String id = UUID.randomUUID().toString();
        put(id, task("a", "sleep 300") + "," + task("b", "sleep 300"));
        await().atMost(Duration.ofSeconds(30)).until(() -> stats(id, "").path("Tasks").size() == 2);

        // alternate the two forms: each keeps its own content (the built responses are kept per filter)
        for (int i = 0; i < 3; i++) {
            assertThat(names(stats(id, "?task=a").path("Tasks"))).containsExactly("a");
            assertThat(names(stats(id, "").path("Tasks"))).containsExactly("a", "b");
            assertThat(names(stats(id, "?task=b").path("Tasks"))).containsExactly("b");
        }
        // a later tick is served, not the first response built: the timestamps move on
        long first = stats(id, "").path("Timestamp").asLong();
        long firstA = stats(id, "?task=a").path("Timestamp").asLong();
        await().atMost(Duration.ofSeconds(30)).until(() -> stats(id, "").path("Timestamp").asLong() > first);
        await().atMost(Duration.ofSeconds(30)).until(() -> stats(id, "?task=a").path("Timestamp").asLong() > firstA);
    }

    private void put(String id, String tasks) throws Exception {
        HttpResponse<String> r = send("PUT", "/v1/client/allocation/" + id, alloc(id, 1, "run", tasks));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        created.add(id);
    }

    private JsonNode stats(String id, String query) throws Exception {
        HttpResponse<String> r = send("GET", "/v1/client/allocation/" + id + "/stats" + query, null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return json.readTree(r.body());
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        return Http.send(port, method, path, body, Duration.ofSeconds(60));
    }

    private static String alloc(String id, long index, String desired, String tasks) {
        return """
                {"ID":"%s","Name":"stats.app[0]","JobID":"stats","AllocModifyIndex":%d,"DesiredStatus":"%s","TaskGroup":"app",
                 "Job":{"ID":"stats","Name":"stats","Type":"service","TaskGroups":[{"Name":"app","Count":1,
                   "Tasks":[%s]}]}}""".formatted(id, index, desired, tasks);
    }

    private static String task(String name, String script) {
        return """
                {"Name":"%s","Driver":"raw_exec","Config":{"command":"/bin/sh","args":["-c","%s"]},
                 "KillTimeout":1000000000,"Resources":{"CPU":100,"MemoryMB":32}}""".formatted(name, script);
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asString()));
        return values;
    }
}
