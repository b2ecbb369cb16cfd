package dev.berth.api;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.berth.support.TempDirs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A full agent with the example device plugin over a real directory: devices, statistics and metrics end to end.
 * Needs its own context (the plugin is off in the shared one).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "berth.data-dir=${java.io.tmpdir}/berth-it-${random.uuid}",
        "berth.acl.enabled=false",
        "server.address=127.0.0.1",
        "berth.devices.example.enabled=true",
        "berth.devices.example.poll-interval=100ms",
        "berth.devices.stats-interval=100ms"
})
class DeviceAgentTest {

    @DynamicPropertySource
    static void deviceDir(DynamicPropertyRegistry registry) throws Exception {
        Path dir = TempDirs.removedAtExit("berth-devices");
        Files.writeString(dir.resolve("dev0"), "healthy\ntemperature=41\n");
        Files.writeString(dir.resolve("dev1"), "unhealthy: fan stuck\n");
        registry.add("berth.devices.example.dir", dir::toString);
    }

    @Autowired
    Environment environment;

    final HttpClient http = HttpClient.newHttpClient();

    String get(String path) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + environment.getProperty("local.server.port") + path);
        return http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void devicesStatisticsAndMetricsFromTheExamplePlugin() {
        await().untilAsserted(() -> assertThat(get("/v1/client/devices")).contains(
                "{\"ID\":\"dev0\",\"Healthy\":true,\"HealthDescription\":\"\",\"Locality\":null}",
                "{\"ID\":\"dev1\",\"Healthy\":false,\"HealthDescription\":\"fan stuck\",\"Locality\":null}"));
        await().untilAsserted(() -> assertThat(get("/v1/client/devices/stats"))
                .contains("\"dev0\":{\"Summary\":{\"IntNumeratorVal\":", "\"temperature\":{\"IntNumeratorVal\":41}"));
        // and in Nomad's host stats
        await().untilAsserted(() -> assertThat(get("/v1/client/stats"))
                .contains("\"DeviceStats\":[{\"Vendor\":\"berth\",\"Type\":\"file\",\"Name\":\"example\",\"InstanceStats\":{\"dev0\":"));
        await().untilAsserted(() -> assertThat(get("/actuator/prometheus")).contains(
                "berth_device_healthy{alloc_id=\"\",instance=\"dev0\",job=\"\",model=\"example\",task=\"\",type=\"file\",vendor=\"berth\"} 1.0",
                "berth_device_healthy{alloc_id=\"\",instance=\"dev1\",job=\"\",model=\"example\",task=\"\",type=\"file\",vendor=\"berth\"} 0.0"));
    }
}
