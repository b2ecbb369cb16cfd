package dev.berth.api;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.config.BerthProperties;
import dev.berth.device.example.ExampleDevicePlugin;
import dev.berth.support.Http;
import dev.berth.support.TempDirs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Devices through the whole allocation lifecycle on a real agent: admission reserves the example plugin's instances,
 * raw_exec tasks get the plugin's env, the alloc's device stats merge its tasks' groups, an alloc that does not fit is
 * refused with nothing stored, metrics carry the holder's labels, and destroy frees the instances for the next alloc.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "berth.data-dir=${java.io.tmpdir}/berth-it-${random.uuid}",
        "berth.drivers.raw-exec.enabled=true",
        "berth.acl.enabled=false",
        "server.address=127.0.0.1",
        "berth.devices.example.enabled=true",
        "berth.devices.example.poll-interval=100ms",
        "berth.devices.stats-interval=100ms"
})
class DeviceAllocationAgentTest {

    @DynamicPropertySource
    static void deviceDir(DynamicPropertyRegistry registry) throws Exception {
        Path dir = TempDirs.removedAtExit("berth-devices");
        Files.writeString(dir.resolve("dev0"), "healthy\ntemperature=40\n");
        Files.writeString(dir.resolve("dev1"), "healthy\ntemperature=50\n");
        registry.add("berth.devices.example.dir", dir::toString);
    }

    @LocalServerPort
    int port;

    @Autowired
    BerthProperties props;

    @Autowired
    dev.berth.device.DeviceAllocator allocator;


    @Autowired

    dev.berth.device.DeviceStatsView deviceStatsView;

    final JsonMapper json = JsonMapper.builder().build();

    final List<String> created = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (String id : created) {
            send("DELETE", "/v1/client/allocation/" + id, null);
        }
    }

    HttpResponse<String> send(String method, String path, String body) throws Exception {
        return Http.send(port, method, path, body);
    }

    HttpResponse<String> put(String id, String body) throws Exception {
        HttpResponse<String> r = send("PUT", "/v1/client/allocation/" + id, body);
        if (r.statusCode() == 200) {
            created.add(id);
        }
        return r;
    }

    static String task(String name, String device, int count) {
        return """
                {"Name":"%s","Driver":"raw_exec",
                 "Config":{"command":"/bin/sh","args":["-c","env > \\"$NOMAD_TASK_DIR/env.txt\\"; exec sleep 600"]},
                 "KillTimeout":1000000000,
                 "Resources":{"CPU":10,"MemoryMB":16,"Devices":[{"Name":"%s","Count":%d}]}}""".formatted(name, device, count);
    }

    static String alloc(String id, String... tasks) {
        return """
                {"ID":"%s","Name":"gpujob.g[0]","JobID":"gpujob","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"g",
                 "Job":{"ID":"gpujob","Name":"gpujob","Type":"service","TaskGroups":[{"Name":"g","Count":1,
                   "Tasks":[%s]}]}}""".formatted(id, String.join(",", tasks));
    }

    String idOf(JsonNode alloc, String task) {
        JsonNode devices = alloc.path("AllocatedResources").path("Tasks").path(task).path("Devices");
        assertThat(devices.size()).isEqualTo(1);
        assertThat(devices.get(0).path("Vendor").asString()).isEqualTo("berth");
        assertThat(devices.get(0).path("Type").asString()).isEqualTo("file");
        assertThat(devices.get(0).path("Name").asString()).isEqualTo("example");
        assertThat(devices.get(0).path("DeviceIDs").size()).isEqualTo(1);
        return devices.get(0).path("DeviceIDs").get(0).asString();
    }

    @Test
    void devicesAreAdmittedHandedToTasksMergedInStatsRefusedWhenTakenAndFreedOnDestroy() throws Exception {
        await().untilAsserted(() -> assertThat(send("GET", "/v1/client/devices/stats", null).body())
                .contains("\"dev0\":", "\"dev1\":"));
        // NodeResources.Devices (fingerprint's DeviceUpdateListener) lists the instances.
        await().untilAsserted(() -> assertThat(json.readTree(send("GET", "/v1/node/self", null).body())
                .path("NodeResources").path("Devices").toString()).contains("\"ID\":\"dev0\"", "\"ID\":\"dev1\""));
        String a = UUID.randomUUID().toString();
        HttpResponse<String> created = put(a, alloc(a, task("t1", "berth/file", 1), task("t2", "file", 1)));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);

        // The reserved IDs are reported (and read back from the stored alloc) in Nomad's AllocatedResources shape.
        JsonNode stored = json.readTree(send("GET", "/v1/allocation/" + a, null).body());
        String t1 = idOf(stored, "t1");
        String t2 = idOf(stored, "t2");
        assertThat(Set.of(t1, t2)).containsExactlyInAnyOrder("dev0", "dev1");

        // Each task sees the plugin's env for its own instance.
        for (String[] t : new String[][] {{"t1", t1}, {"t2", t2}}) {
            Path env = props.allocDir().resolve(a).resolve(t[0]).resolve("local").resolve("env.txt");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(env).exists()
                    .content().contains(ExampleDevicePlugin.ENV + "=" + t[1] + "\n"));
        }

        // Alloc stats: one merged group holding both tasks' instances at the alloc level; each task sees only its own.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode stats = json.readTree(send("GET", "/v1/client/allocation/" + a + "/stats", null).body());
            JsonNode allocDevices = stats.path("ResourceUsage").path("DeviceStats");
            assertThat(allocDevices.size()).isEqualTo(1);
            assertThat(allocDevices.path(0).path("Name").asString()).isEqualTo("example");
            assertThat(fieldNames(allocDevices.path(0).path("InstanceStats"))).containsExactlyInAnyOrder("dev0", "dev1");
            assertThat(fieldNames(stats.path("Tasks").path("t1").path("ResourceUsage").path("DeviceStats").path(0)
                    .path("InstanceStats"))).containsExactly(t1);
            assertThat(fieldNames(stats.path("Tasks").path("t2").path("ResourceUsage").path("DeviceStats").path(0)
                    .path("InstanceStats"))).containsExactly(t2);
        });
        // ?task= narrows the alloc level to that task's instances too.
        JsonNode one = json.readTree(send("GET", "/v1/client/allocation/" + a + "/stats?task=t2", null).body());
        assertThat(fieldNames(one.path("ResourceUsage").path("DeviceStats").get(0).path("InstanceStats"))).containsExactly(t2);

        // The folding itself, also for tasks the stats collector has not sampled (they keep DeviceStats null).
        var plain = new AllocStatsDtos.ResourceUsage(null, null, null);
        var usage = new AllocStatsDtos.AllocResourceUsage(new AllocStatsDtos.ResourceUsage(null, null, List.of()),
                java.util.Map.of("t1", new AllocStatsDtos.TaskResourceUsageDto(plain, 5L, null),
                        "t2", new AllocStatsDtos.TaskResourceUsageDto(plain, 6L, null)), 7L);
        var folded = AllocDeviceStats.withDeviceStats(usage, a, null, deviceStatsView);
        assertThat(folded.resourceUsage().deviceStats()).hasSize(1);
        assertThat(((dev.berth.device.DeviceGroupStats) folded.resourceUsage().deviceStats().getFirst()).instanceStats())
                .containsOnlyKeys("dev0", "dev1");
        assertThat(((dev.berth.device.DeviceGroupStats) folded.tasks().get("t1").resourceUsage().deviceStats().getFirst())
                .instanceStats()).containsOnlyKeys(t1);
        assertThat(folded.tasks().get("t2").timestamp()).isEqualTo(6L);
        assertThat(folded.timestamp()).isEqualTo(7L);
        var none = AllocDeviceStats.withDeviceStats(usage, "no-such-alloc", null, deviceStatsView);
        assertThat(none.resourceUsage().deviceStats()).isEmpty();
        assertThat(none.tasks().get("t1").resourceUsage().deviceStats()).isNull();

        // Device metrics carry the holder's labels.
        await().untilAsserted(() -> assertThat(send("GET", "/actuator/prometheus", null).body()).contains(
                "berth_device_healthy{alloc_id=\"" + a + "\",instance=\"" + t1 + "\",job=\"gpujob\",model=\"example\",task=\"t1\"",
                "berth_device_healthy{alloc_id=\"" + a + "\",instance=\"" + t2 + "\",job=\"gpujob\",model=\"example\",task=\"t2\""));

        // A third request does not fit: 409 naming the request, nothing stored, nothing reserved.
        String b = UUID.randomUUID().toString();
        HttpResponse<String> refused = put(b, alloc(b, task("gpu", "berth/file/example", 1)));
        assertThat(refused.statusCode()).isEqualTo(409);
        JsonNode problem = json.readTree(refused.body());
        assertThat(problem.path("detail").asString()).contains("task \"gpu\"", "\"berth/file/example\"", "need 1, at most 0");
        assertThat(problem.path("resource").asString()).isEqualTo("devices");
        assertThat(send("GET", "/v1/allocation/" + b, null).statusCode()).isEqualTo(404);
        assertThat(send("GET", "/v1/client/devices/reservations", null).body()).doesNotContain(b);
        assertThat(props.allocDir().resolve(b)).doesNotExist();

        // Destroy releases the instances: the refused allocation now fits.
        assertThat(send("DELETE", "/v1/client/allocation/" + a, null).statusCode()).isEqualTo(200);
        assertThat(send("GET", "/v1/client/devices/reservations", null).body()).doesNotContain(a);
        HttpResponse<String> second = put(b, alloc(b, task("gpu", "berth/file/example", 2)));
        assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
        JsonNode ids = json.readTree(second.body()).path("AllocatedResources").path("Tasks").path("gpu").path("Devices").get(0)
                .path("DeviceIDs");
        assertThat(List.of(ids.get(0).asString(), ids.get(1).asString())).containsExactlyInAnyOrder("dev0", "dev1");
    }

    @Test
    void assignedDevicesAreHonouredAndUnknownOnesRefused() throws Exception {
        await().untilAsserted(() -> assertThat(send("GET", "/v1/client/devices", null).body()).contains("\"dev1\""));
        String a = UUID.randomUUID().toString();
        String assigned = alloc(a, task("t", "berth/file", 1)).replaceFirst("\"Job\":",
                "\"AllocatedResources\":{\"Tasks\":{\"t\":{\"Devices\":[{\"Vendor\":\"berth\",\"Type\":\"file\",\"Name\":\"example\","
                        + "\"DeviceIDs\":[\"dev1\"]}]}}},\"Job\":");
        HttpResponse<String> r = put(a, assigned);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(idOf(json.readTree(r.body()), "t")).isEqualTo("dev1");

        String b = UUID.randomUUID().toString();
        String unknown = alloc(b, task("t", "berth/file", 1)).replaceFirst("\"Job\":",
                "\"AllocatedResources\":{\"Tasks\":{\"t\":{\"Devices\":[{\"Vendor\":\"berth\",\"Type\":\"file\",\"Name\":\"example\","
                        + "\"DeviceIDs\":[\"dev9\"]}]}}},\"Job\":");
        HttpResponse<String> refused = put(b, unknown);
        assertThat(refused.statusCode()).isEqualTo(409);
        assertThat(json.readTree(refused.body()).path("detail").asString()).contains("dev9");
        assertThat(send("GET", "/v1/allocation/" + b, null).statusCode()).isEqualTo(404);
    }

    @Test
    void badDeviceInputIsA400AndChangesNothing() throws Exception {
        String a = UUID.randomUUID().toString();
        HttpResponse<String> blank = put(a, alloc(a, task("t", " ", 1)));
        assertThat(blank.statusCode()).as(blank.body()).isEqualTo(400);
        HttpResponse<String> negative = put(a, alloc(a, task("t", "berth/file", -1)));
        assertThat(negative.statusCode()).as(negative.body()).isEqualTo(400);
        String otherTask = alloc(a, task("t", "berth/file", 1)).replaceFirst("\"Job\":",
                "\"AllocatedResources\":{\"Tasks\":{\"ghost\":{\"Devices\":[{\"Vendor\":\"berth\",\"Type\":\"file\","
                        + "\"Name\":\"example\",\"DeviceIDs\":[\"dev0\"]}]}}},\"Job\":");
        HttpResponse<String> ghost = put(a, otherTask);
        assertThat(ghost.statusCode()).as(ghost.body()).isEqualTo(400);
        assertThat(ghost.body()).contains("ghost");
        assertThat(send("GET", "/v1/allocation/" + a, null).statusCode()).isEqualTo(404);
        assertThat(send("GET", "/v1/client/devices/reservations", null).body()).isEqualTo("[]");
    }

    private static Set<String> fieldNames(JsonNode node) {
        Set<String> names = new HashSet<>();
        node.propertyNames().forEach(names::add);
        return names;
    }
}
