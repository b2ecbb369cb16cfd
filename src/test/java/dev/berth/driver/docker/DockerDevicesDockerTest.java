package dev.berth.driver.docker;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
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

import dev.berth.support.TempDirs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Devices reach a docker task end to end: the example plugin (files as devices) reserves an instance, the devices
 * hook hands its mount to the driver as a {@code TaskDevice.Mount}, and the container sees the file read-only at the plugin's path.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "berth.data-dir=${java.io.tmpdir}/berth-docker-dev-it-${random.uuid}",
        "berth.drivers.docker.enabled=true",
        "berth.drivers.docker.pull=never",
        "berth.acl.enabled=false",
        "server.address=127.0.0.1",
        "berth.devices.example.enabled=true",
        "berth.devices.example.poll-interval=100ms"
})
class DockerDevicesDockerTest {

    @DynamicPropertySource
    static void deviceDir(DynamicPropertyRegistry registry) throws Exception {
        Path dir = TempDirs.removedAtExit("berth-docker-devices");
        Files.writeString(dir.resolve("dev0"), "healthy\ntemperature=40\n");
        registry.add("berth.devices.example.dir", dir::toString);
    }

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void anExampleDeviceIsMountedReadOnlyIntoTheContainer() throws Exception {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(send("GET", "/v1/client/devices/stats", null).body()).contains("\"dev0\":"));
        String id = UUID.randomUUID().toString();
        String task = """
                {"Name":"dev","Driver":"docker","Config":{"image":"berth-test/busybox:1","command":"sh",
                  "args":["-c","d=/dev/berth-example/$BERTH_EXAMPLE_DEVICES; cat $d; if echo x >> $d; then echo write-allowed; else echo write-refused; fi; while :; do sleep 1; done"]},
                 "Resources":{"CPU":100,"MemoryMB":32,"Devices":[{"Name":"berth/file","Count":1}]}}""";
        String alloc = """
                {"ID":"%s","Name":"dv.app[0]","JobID":"dv","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"app",
                 "Job":{"ID":"dv","Name":"dv","Type":"service","TaskGroups":[{"Name":"app","Count":1,"Tasks":[%s]}]}}"""
                .formatted(id, task);
        HttpResponse<String> put = send("PUT", "/v1/client/allocation/" + id, alloc);
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        try {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(send("GET", "/v1/client/fs/cat/" + id + "?path=alloc/logs/dev.stdout.0", null).body())
                            .contains("healthy\ntemperature=40\n", "write-refused").doesNotContain("write-allowed"));
            // the engine keeps stdout and stderr apart: stderr's line may reach its file after stdout's
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(send("GET", "/v1/client/fs/cat/" + id + "?path=alloc/logs/dev.stderr.0", null).body())
                            .contains("Read-only file system"));
        } finally {
            send("DELETE", "/v1/client/allocation/" + id, null);
        }
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/json")
                        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
