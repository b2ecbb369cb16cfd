package dev.berth.api;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.berth.device.DeviceManager;
import dev.berth.support.AgentIntegrationTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;

/** The agent boots with the device manager (no plugins enabled) and serves the device endpoints. */
@AgentIntegrationTest
class DeviceApiTest {

    @Autowired
    Environment environment;

    @Autowired
    DeviceManager manager;

    final HttpClient http = HttpClient.newHttpClient();

    HttpResponse<String> get(String path) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + environment.getProperty("local.server.port") + path);
        return http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void withoutPluginsThereAreNoDevices() throws Exception {
        assertThat(manager.isRunning()).isTrue();
        assertThat(get("/v1/client/devices").body()).isEqualTo("[]");
        assertThat(get("/v1/client/devices/stats").body()).isEqualTo("[]");
        assertThat(get("/v1/client/devices/reservations").body()).isEqualTo("[]");
    }
}
