package dev.berth.driver.docker;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;

import dev.berth.support.Http;
import dev.berth.support.TempDirs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Host volumes in docker tasks against the local engine: a configured volume and a dynamic {@code mkdir} one are bind
 * mounted at the task's {@code destination}; the task reads and writes through them, and a read-only mount refuses
 * the write inside the container.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "berth.data-dir=${java.io.tmpdir}/berth-docker-it-${random.uuid}",
        "berth.drivers.docker.enabled=true",
        "berth.drivers.docker.pull=never",
        "berth.acl.enabled=false",
        "server.address=127.0.0.1"
})
class HostVolumeDockerTest {

    static Path shared;

    @DynamicPropertySource
    static void volumes(DynamicPropertyRegistry registry) throws Exception {
        shared = Files.createDirectories(TempDirs.removedAtExit("berth-docker-volumes").resolve("shared"));
        Files.writeString(shared.resolve("in.txt"), "configured\n");
        registry.add("berth.host-volumes.shared.path", shared::toString);
    }

    @LocalServerPort
    int port;

    @Test
    void aDockerTaskReadsAndWritesAConfiguredAndADynamicVolumeAndCannotWriteAReadOnlyMount() throws Exception {
        JsonNode created = Http.ok(port, "PUT", "/v1/volume/host/create",
                "{\"Volume\":{\"Name\":\"scratch\",\"PluginID\":\"mkdir\",\"Parameters\":{\"mode\":\"0777\"}}}").path("Volume");
        Path scratch = Path.of(created.path("HostPath").asString());
        Files.writeString(scratch.resolve("in.txt"), "dynamic\n");
        String id = UUID.randomUUID().toString();
        String script = "cat /srv/shared/in.txt /srv/scratch/in.txt > /srv/scratch/out.txt; "
                + "if echo x > /ro/x.txt; then echo ro-written; else echo ro-refused; fi > /srv/scratch/ro.txt; "
                + "while :; do sleep 1; done";
        String alloc = """
                {"ID":"%s","Name":"v.g[0]","JobID":"v","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"g",
                 "Job":{"ID":"v","Name":"v","Type":"service","TaskGroups":[{"Name":"g","Count":1,
                   "Volumes":{"shared":{"Name":"shared","Type":"host","Source":"shared"},
                              "scratch":{"Name":"scratch","Type":"host","Source":"scratch"}},
                   "Tasks":[{"Name":"t","Driver":"docker","Config":{"image":"berth-test/busybox:1","command":"sh","args":["-c","%s"]},
                     "VolumeMounts":[{"Volume":"shared","Destination":"/srv/shared"},{"Volume":"scratch","Destination":"/srv/scratch"},
                                     {"Volume":"shared","Destination":"/ro","ReadOnly":true}],
                     "Resources":{"CPU":100,"MemoryMB":32}}]}]}}""".formatted(id, script);
        HttpResponse<String> put = Http.send(port, "PUT", "/v1/client/allocation/" + id, alloc);
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(scratch.resolve("ro.txt"))
                    && !Files.readString(scratch.resolve("ro.txt")).isEmpty());
            assertThat(scratch.resolve("out.txt")).hasContent("configured\ndynamic");
            assertThat(scratch.resolve("ro.txt")).hasContent("ro-refused");
            assertThat(shared.resolve("x.txt")).doesNotExist();
        } finally {
            Http.send(port, "DELETE", "/v1/client/allocation/" + id, null);
        }
    }
}
