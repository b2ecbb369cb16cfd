package dev.berth.service;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import io.grpc.Server;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A group-level service with a grpc check (against grpc-java's health server on 127.0.0.1) and a script check run in a
 * named task; the {@code Service} topic of the event stream; check metrics on the agent's Prometheus endpoint.
 */
@AgentIntegrationTest
class GroupServicesAgentTest {

    @LocalServerPort
    int port;

    final JsonMapper json = JsonMapper.builder().build();
    final HttpClient http = HttpClient.newHttpClient();
    Server grpc;
    InputStream stream;
    String id;

    @AfterEach
    void cleanUp() throws Exception {
        if (id != null) {
            Http.send(port, "DELETE", "/v1/client/allocation/" + id, null);
        }
        if (stream != null) {
            stream.close();
        }
        if (grpc != null) {
            grpc.shutdownNow();
        }
    }

    @Test
    void groupServiceWithGrpcAndScriptChecksIsRegisteredStreamedAndMeasured() throws Exception {
        HealthStatusManager health = new HealthStatusManager();
        health.setStatus("orders", ServingStatus.SERVING);
        grpc = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(health.getHealthService()).build().start();
        id = UUID.randomUUID().toString();
        String svc = "orders-" + id.substring(0, 8);
        BlockingQueue<String> events = follow("/v1/event/stream?topic=Service:" + svc);

        String body = """
                {"ID":"%s","Name":"shop.app[0]","JobID":"shop","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"app",
                 "Job":{"ID":"shop","Name":"shop","Type":"service","TaskGroups":[{"Name":"app","Count":1,
                   "Services":[{"Name":"%s","PortLabel":"%d","Provider":"nomad","Tags":["grpc"],"Checks":[
                     {"Name":"health","Type":"grpc","GRPCService":"orders","Interval":1000000000,"Timeout":1000000000},
                     {"Name":"ready-file","Type":"script","TaskName":"sleeper","Command":"/bin/sh",
                      "Args":["-c","test -e \\"$NOMAD_TASK_DIR/ready\\" && echo ready in $NOMAD_TASK_NAME"],
                      "Interval":1000000000,"Timeout":1000000000,"OnUpdate":"ignore"}]}],
                   "Tasks":[{"Name":"sleeper","Driver":"raw_exec","KillTimeout":1000000000,
                     "Config":{"command":"/bin/sh","args":["-c","touch \\"$NOMAD_TASK_DIR/ready\\"; exec sleep 600"]},
                     "Resources":{"CPU":20,"MemoryMB":16}}]}]}}""".formatted(id, svc, grpc.getPort());
        HttpResponse<String> put = Http.send(port, "PUT", "/v1/client/allocation/" + id, body);
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Map<String, JsonNode> c = checks();
            return c.size() == 2 && c.values().stream().allMatch(r -> "success".equals(r.path("Status").asString()));
        });
        Map<String, JsonNode> c = checks();
        assertThat(c.get("health").path("Output").asString()).isEqualTo("gRPC check 127.0.0.1:" + grpc.getPort() + "/orders: success");
        assertThat(c.get("health").path("Task").isMissingNode()).as("a group check has no task").isTrue();
        assertThat(c.get("ready-file").path("Output").asString()).isEqualTo("ready in sleeper\n");
        assertThat(c.get("ready-file").path("Mode").asString()).isEqualTo("readiness");

        JsonNode reg = json.readTree(Http.send(port, "GET", "/v1/service/" + svc, null).body()).get(0);
        assertThat(reg.path("ID").asString()).isEqualTo("_nomad-task-" + id + "-group-app-" + svc + "-" + grpc.getPort());
        assertThat(reg.path("Port").asInt()).isEqualTo(grpc.getPort());
        await().atMost(Duration.ofSeconds(30)).until(() -> "success".equals(
                json.readTree(Http.send(port, "GET", "/v1/service/" + svc, null).body()).get(0).path("Health").asString()));

        // the grpc server says NOT_SERVING: the check and the registration's health follow
        health.setStatus("orders", ServingStatus.NOT_SERVING);
        await().atMost(Duration.ofSeconds(30)).until(() -> "failure".equals(checks().get("health").path("Status").asString()));
        assertThat(checks().get("health").path("Output").asString()).endsWith("status NOT_SERVING");

        JsonNode frame = nextServiceFrame(events);
        assertThat(frame.path("Topic").asString()).isEqualTo("Service");
        assertThat(frame.path("Type").asString()).isEqualTo("ServiceRegistration");
        assertThat(frame.path("Key").asString()).isEqualTo(reg.path("ID").asString());
        assertThat(frame.path("FilterKeys").toString()).isEqualTo("[\"shop\",\"" + svc + "\"]");
        assertThat(frame.path("Payload").path("Service").path("ServiceName").asString()).isEqualTo(svc);

        String scrape = Http.send(port, "GET", "/actuator/prometheus", null).body();
        assertThat(scrape).containsPattern("berth_service_check_results_total\\{status=\"success\",type=\"grpc\"} [1-9]")
                .containsPattern("berth_service_check_duration_seconds_count\\{type=\"script\"} [1-9]")
                .contains("berth_service_checks{status=\"failure\"}");

        // destroy: no check, no registration, a deregistration event
        Http.send(port, "DELETE", "/v1/client/allocation/" + id, null);
        await().atMost(Duration.ofSeconds(30)).until(() -> json.readTree(Http.send(port, "GET", "/v1/service/" + svc, null).body()).isEmpty());
        JsonNode last;
        do {
            last = nextServiceFrame(events);
        } while (!"ServiceDeregistration".equals(last.path("Type").asString()));
        assertThat(last.path("Key").asString()).isEqualTo(reg.path("ID").asString());
        id = null;
    }

    private Map<String, JsonNode> checks() throws Exception {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        HttpResponse<String> r = Http.send(port, "GET", "/v1/client/allocation/" + id + "/checks", null);
        json.readTree(r.body()).properties().forEach(e -> out.put(e.getValue().path("Check").asString(), e.getValue()));
        return out;
    }

    private BlockingQueue<String> follow(String pathAndQuery) throws Exception {
        HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery)).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        stream = response.body();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    lines.add(line);
                }
            } catch (Exception e) {
                // closed by the test
            }
        });
        return lines;
    }

    /** The next event of a frame (frames may carry several; each is returned in turn). */
    private final java.util.ArrayDeque<JsonNode> pending = new java.util.ArrayDeque<>();

    private JsonNode nextServiceFrame(BlockingQueue<String> lines) throws Exception {
        while (pending.isEmpty()) {
            String line = lines.poll(30, TimeUnit.SECONDS);
            assertThat(line).as("an event within 30 s").isNotNull();
            if (!line.equals("{}")) {
                json.readTree(line).path("Events").forEach(pending::add);
            }
        }
        return pending.poll();
    }
}
