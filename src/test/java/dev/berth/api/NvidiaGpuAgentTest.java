package dev.berth.api;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
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
import dev.berth.support.Http;
import dev.berth.support.TempDirs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * GPUs end to end on a real agent with the stand-in {@code nvidia-smi} listing the pids of real raw_exec task processes:
 * per-task GPU memory and utilization in the allocation's stats and in metrics, a foreign process reported as a node
 * event and a metric, dcgm-exporter mapping files, and a GPU that vanishes: {@code Device Unhealthy} on the task, the
 * group's {@code restart} policy, the instance's health in the stats and reservations, recovery after the hold-down.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "berth.data-dir=${java.io.tmpdir}/berth-it-${random.uuid}",
        "berth.drivers.raw-exec.enabled=true",
        "berth.acl.enabled=false",
        "server.address=127.0.0.1",
        "berth.telemetry.collection-interval=200ms",
        "berth.devices.nvidia.enabled=true",
        "berth.devices.nvidia.fingerprint-period=200ms",
        "berth.devices.nvidia.pmon=true",
        "berth.devices.stats-interval=200ms",
        "berth.devices.health-hold-down=500ms"
})
class NvidiaGpuAgentTest {

    static final String A = "GPU-aaaaaaaa-1111-2222-3333-444444444444";

    static final String C = "GPU-cccccccc-1111-2222-3333-444444444444";

    static Path smiDir;

    static Path mappingDir;

    @DynamicPropertySource
    static void nvidiaSmi(DynamicPropertyRegistry registry) throws IOException {
        smiDir = TempDirs.removedAtExit("berth-nvidia");
        mappingDir = TempDirs.removedAtExit("berth-dcgm-map");
        Path smi = smiDir.resolve("nvidia-smi");
        try (InputStream in = NvidiaGpuAgentTest.class.getResourceAsStream("/nvidia/fake-nvidia-smi.sh")) {
            Files.copy(in, smi);
        }
        Files.setPosixFilePermissions(smi, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(smiDir.resolve("calls"), "5"); // GPU-bbbb is gone from the start: A is the only free T4
        registry.add("berth.devices.nvidia.smi-path", smi::toString);
        registry.add("berth.devices.nvidia.job-mapping-dir", mappingDir::toString);
    }

    @LocalServerPort
    int port;

    @Autowired
    BerthProperties props;

    final JsonMapper json = JsonMapper.builder().build();

    final List<String> created = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        Files.deleteIfExists(smiDir.resolve("hide"));
        for (String id : created) {
            Http.send(port, "DELETE", "/v1/client/allocation/" + id, null);
        }
        // the next test needs the GPU free again
        await().untilAsserted(() -> assertThat(send("GET", "/v1/client/devices/reservations", null).body()).isEqualTo("[]"));
    }

    HttpResponse<String> send(String method, String path, String body) throws Exception {
        return Http.send(port, method, path, body);
    }

    /** t1 holds a T4 and runs a second process (a child of its shell); t2 holds no GPU but uses t1's (same alloc). */
    static String alloc(String id) {
        return alloc(id, "restart");
    }

    static String alloc(String id, String policy) {
        String t1 = """
                {"Name":"t1","Driver":"raw_exec","KillTimeout":1000000000,
                 "Config":{"command":"/bin/sh","args":["-c","sleep 600 & echo $! > \\"$NOMAD_TASK_DIR/child\\"; echo $$ > \\"$NOMAD_TASK_DIR/pid\\"; wait"]},
                 "Resources":{"CPU":10,"MemoryMB":16,"Devices":[{"Name":"nvidia/gpu/Tesla T4","Count":1}]}}""";
        String t2 = """
                {"Name":"t2","Driver":"raw_exec","KillTimeout":1000000000,
                 "Config":{"command":"/bin/sh","args":["-c","echo $$ > \\"$NOMAD_TASK_DIR/pid\\"; exec sleep 600"]},
                 "Resources":{"CPU":10,"MemoryMB":16}}""";
        return """
                {"ID":"%s","Name":"train.g[0]","JobID":"train","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"g",
                 "Job":{"ID":"train","Name":"train","Type":"service","TaskGroups":[{"Name":"g","Count":1,
                   "Meta":{"berth.devices.on-unhealthy":"%s"},
                   "RestartPolicy":{"Attempts":3,"Interval":600000000000,"Delay":1000000,"Mode":"fail"},
                   "Tasks":[%s,%s]}]}}""".formatted(id, policy, t1, t2);
    }

    long pidOf(String alloc, String task, String file) throws IOException {
        Path path = props.allocDir().resolve(alloc).resolve(task).resolve("local").resolve(file);
        await().until(() -> Files.exists(path) && !Files.readString(path).isBlank());
        return Long.parseLong(Files.readString(path).strip());
    }

    @Test
    void tasksGpuUseForeignProcessesMappingFilesAndAVanishingGpu() throws Exception {
        await().untilAsserted(() -> assertThat(send("GET", "/v1/client/devices", null).body()).contains(A, C));
        String a = UUID.randomUUID().toString();
        HttpResponse<String> put = send("PUT", "/v1/client/allocation/" + a, alloc(a));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        created.add(a);
        assertThat(json.readTree(put.body()).path("AllocatedResources").path("Tasks").path("t1").path("Devices").toString()).contains(A);

        // dcgm-exporter's view of the mapping directory: GPU index 0 is held by this allocation
        await().untilAsserted(() -> assertThat(mappingDir.resolve("0")).hasContent(a + "\n"));

        long t1 = pidOf(a, "t1", "pid");
        long t1Child = pidOf(a, "t1", "child");
        long t2 = pidOf(a, "t2", "pid");
        long stranger = ProcessHandle.current().pid(); // the test JVM: belongs to no task
        Files.writeString(smiDir.resolve("compute-apps.tmp"), t1 + ", " + A + ", 1000\n" + t1Child + ", " + A + ", 500\n"
                + t2 + ", " + A + ", 250\n" + stranger + ", " + A + ", 64\n" + stranger + ", " + C + ", 64\n");
        Files.move(smiDir.resolve("compute-apps.tmp"), smiDir.resolve("compute-apps"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        Files.writeString(smiDir.resolve("pmon.tmp"), "    0 %10d     C     40      5      -      -      -      -    sleep\n".formatted(t1Child));
        Files.move(smiDir.resolve("pmon.tmp"), smiDir.resolve("pmon"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);

        // the allocation's stats: each task's use of the GPU, at task and alloc level
        await().untilAsserted(() -> {
            JsonNode stats = json.readTree(send("GET", "/v1/client/allocation/" + a + "/stats", null).body());
            JsonNode t1Gpu = stats.path("Tasks").path("t1").path("ResourceUsage").path("DeviceStats").path(0).path("InstanceStats").path(A);
            assertThat(t1Gpu.path("Stats").path("Attributes").path("Task memory used").path("IntNumeratorVal").asLong()).isEqualTo(1500);
            assertThat(t1Gpu.path("Stats").path("Attributes").path("Task processes").path("IntNumeratorVal").asLong()).isEqualTo(2);
            assertThat(t1Gpu.path("Stats").path("Attributes").path("Task utilization").path("IntNumeratorVal").asLong()).isEqualTo(40);
            assertThat(t1Gpu.path("Stats").path("Attributes").path("Healthy").path("BoolVal").asBoolean()).isTrue();
            JsonNode t2Gpu = stats.path("Tasks").path("t2").path("ResourceUsage").path("DeviceStats").path(0).path("InstanceStats").path(A);
            assertThat(t2Gpu.path("Stats").path("Attributes").path("Task memory used").path("IntNumeratorVal").asLong()).isEqualTo(250);
            JsonNode perTask = stats.path("ResourceUsage").path("DeviceStats").path(0).path("InstanceStats").path(A)
                    .path("Stats").path("Nested").path("Tasks").path("Nested");
            assertThat(perTask.path("t1").path("Attributes").path("Task memory used").path("IntNumeratorVal").asLong()).isEqualTo(1500);
            assertThat(perTask.path("t2").path("Attributes").path("Task memory used").path("IntNumeratorVal").asLong()).isEqualTo(250);
        });

        // metrics with alloc/job/task labels, and the foreign process on the reserved GPU (not the one on the free GPU)
        await().untilAsserted(() -> assertThat(send("GET", "/actuator/prometheus", null).body()).contains(
                "berth_device_task_memory_used_bytes{alloc_id=\"" + a + "\",instance=\"" + A + "\",job=\"train\",model=\"Tesla T4\",task=\"t1\",type=\"gpu\",vendor=\"nvidia\"} 1.572864E9",
                "berth_device_task_memory_used_bytes{alloc_id=\"" + a + "\",instance=\"" + A + "\",job=\"train\",model=\"Tesla T4\",task=\"t2\",type=\"gpu\",vendor=\"nvidia\"} 2.62144E8",
                "berth_device_task_utilization_ratio{alloc_id=\"" + a + "\",instance=\"" + A + "\",job=\"train\",model=\"Tesla T4\",task=\"t1\",type=\"gpu\",vendor=\"nvidia\"} 0.4",
                "berth_device_foreign_processes{alloc_id=\"" + a + "\",instance=\"" + A + "\",job=\"train\",model=\"Tesla T4\",task=\"t1\",type=\"gpu\",vendor=\"nvidia\"} 1.0"));
        assertThat(send("GET", "/actuator/prometheus", null).body()).doesNotContain("berth_device_foreign_processes{alloc_id=\"\"");
        await().untilAsserted(() -> assertThat(send("GET", "/v1/node/self", null).body())
                .contains("Foreign process " + stranger + " on device " + A + " reserved by allocation " + a + " task t1"));

        // the GPU vanishes: t1 is told, and its group's policy restarts it
        Files.writeString(smiDir.resolve("hide"), A + "\n");
        await().untilAsserted(() -> {
            JsonNode events = json.readTree(send("GET", "/v1/allocation/" + a, null).body()).path("TaskStates").path("t1").path("Events");
            List<String> types = new ArrayList<>();
            events.forEach((e) -> types.add(e.path("Type").asString()));
            assertThat(types).contains("Device Unhealthy", "Restart Signaled");
            assertThat(events.toString()).contains("Device " + A + " is unhealthy: device is no longer present");
        });
        JsonNode t2Events = json.readTree(send("GET", "/v1/allocation/" + a, null).body()).path("TaskStates").path("t2").path("Events");
        assertThat(t2Events.toString()).doesNotContain("Device Unhealthy");
        await().untilAsserted(() -> assertThat(send("GET", "/v1/client/devices/reservations", null).body())
                .contains("\"ID\":\"" + A + "\"", "\"Healthy\":false", "\"HealthDescription\":\"device is no longer present\""));
        await().untilAsserted(() -> {
            JsonNode stats = json.readTree(send("GET", "/v1/client/allocation/" + a + "/stats", null).body());
            JsonNode gpu = stats.path("ResourceUsage").path("DeviceStats").path(0).path("InstanceStats").path(A);
            assertThat(gpu.path("Stats").path("Attributes").path("Healthy").path("BoolVal").asBoolean(true)).isFalse();
        });

        // back, and healthy for the hold-down: recovered
        Files.delete(smiDir.resolve("hide"));
        await().untilAsserted(() -> assertThat(json.readTree(send("GET", "/v1/allocation/" + a, null).body())
                .path("TaskStates").path("t1").path("Events").toString()).contains("Device Healthy", "Device " + A + " is healthy again"));

        // destroyed: the mapping file goes
        send("DELETE", "/v1/client/allocation/" + a, null);
        await().untilAsserted(() -> assertThat(mappingDir.resolve("0")).doesNotExist());
    }

    @Test
    void theFailPolicyFailsTheTaskAndAnUnknownPolicyIsRefused() throws Exception {
        await().untilAsserted(() -> assertThat(send("GET", "/v1/client/devices", null).body()).contains(A));
        String bad = UUID.randomUUID().toString();
        HttpResponse<String> refused = send("PUT", "/v1/client/allocation/" + bad, alloc(bad, "reboot"));
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(refused.body()).contains("must be one of none, restart, fail, was \\\"reboot\\\"");
        assertThat(send("GET", "/v1/client/devices/reservations", null).body()).isEqualTo("[]");

        String a = UUID.randomUUID().toString();
        HttpResponse<String> put = send("PUT", "/v1/client/allocation/" + a, alloc(a, "fail"));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        created.add(a);
        pidOf(a, "t1", "pid");

        Files.writeString(smiDir.resolve("hide"), A + "\n");
        await().untilAsserted(() -> {
            JsonNode t1 = json.readTree(send("GET", "/v1/allocation/" + a, null).body()).path("TaskStates").path("t1");
            assertThat(t1.path("State").asString()).isEqualTo("dead");
            assertThat(t1.path("Failed").asBoolean()).isTrue();
            assertThat(t1.path("Events").toString()).contains("Device Unhealthy", "\"FailsTask\":true");
        });
    }
}
