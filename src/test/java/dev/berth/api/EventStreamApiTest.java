package dev.berth.api;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.berth.events.Change;
import dev.berth.events.ChangeFeed;
import dev.berth.events.Topic;
import dev.berth.support.AgentIntegrationTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code /v1/event/stream} over HTTP: Nomad's newline-delimited frames, filters, resume and bad input. */
@AgentIntegrationTest
class EventStreamApiTest {

    @Autowired
    ChangeFeed feed;

    @Autowired
    Environment environment;

    @Autowired
    JsonMapper jsonMapper;

    final HttpClient http = HttpClient.newHttpClient();
    final List<InputStream> open = new java.util.ArrayList<>();
    final String job = "job-" + UUID.randomUUID();

    @AfterEach
    void close() throws Exception {
        for (InputStream in : open) {
            in.close();
        }
    }

    URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + environment.getProperty("local.server.port") + pathAndQuery);
    }

    /** Opens a stream; its lines arrive on the returned queue. */
    BlockingQueue<String> follow(String query) throws Exception {
        HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(uri("/v1/event/stream" + query)).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
        open.add(response.body());
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

    /** The next frame that is not a heartbeat. */
    JsonNode nextFrame(BlockingQueue<String> lines) throws Exception {
        while (true) {
            String line = lines.poll(30, TimeUnit.SECONDS);
            assertThat(line).as("a frame within 30 s").isNotNull();
            if (!line.equals("{}")) {
                return jsonMapper.readTree(line);
            }
        }
    }

    Change publishAlloc(String id) {
        Map<String, Object> alloc = new LinkedHashMap<>();
        alloc.put("ID", id);
        alloc.put("JobID", job);
        alloc.put("Namespace", "default");
        alloc.put("ClientStatus", "running");
        alloc.put("Job", Map.of("ID", job));
        return feed.publish(Topic.Allocation, "AllocationUpdated", id, "default", alloc);
    }

    @Test
    void framesInNomadsShapeAfterAnImmediateHeartbeat() throws Exception {
        String id = UUID.randomUUID().toString();
        BlockingQueue<String> lines = follow("?topic=Allocation:" + id);
        assertThat(lines.poll(30, TimeUnit.SECONDS)).isEqualTo("{}");
        publishAlloc(UUID.randomUUID().toString()); // another allocation: filtered out
        Change change = publishAlloc(id);

        JsonNode frame = nextFrame(lines);
        assertThat(frame.get("Index").asLong()).isEqualTo(change.index());
        JsonNode event = frame.get("Events").get(0);
        assertThat(event.get("Topic").asString()).isEqualTo("Allocation");
        assertThat(event.get("Type").asString()).isEqualTo("AllocationUpdated");
        assertThat(event.get("Key").asString()).isEqualTo(id);
        assertThat(event.get("Namespace").asString()).isEqualTo("default");
        assertThat(event.get("Index").asLong()).isEqualTo(change.index());
        assertThat(event.get("FilterKeys").get(0).asString()).isEqualTo(job);
        JsonNode alloc = event.get("Payload").get("Allocation");
        assertThat(alloc.get("ID").asString()).isEqualTo(id);
        assertThat(alloc.get("ClientStatus").asString()).isEqualTo("running");
        assertThat(alloc.has("Job")).as("the job is left out as Nomad does").isFalse();
        assertThat(frame.get("Events")).hasSize(1);
    }

    @Test
    void aJobIdFilterKeyAndAResumeIndexReplayWhatTheJournalHolds() throws Exception {
        Change first = publishAlloc(UUID.randomUUID().toString());
        Change second = publishAlloc(UUID.randomUUID().toString());
        BlockingQueue<String> lines = follow("?topic=Allocation:" + job + "&index=" + first.index());
        assertThat(nextFrame(lines).get("Index").asLong()).isEqualTo(first.index());
        assertThat(nextFrame(lines).get("Index").asLong()).isEqualTo(second.index());
        Change third = publishAlloc(UUID.randomUUID().toString());
        assertThat(nextFrame(lines).get("Index").asLong()).isEqualTo(third.index());
    }

    @Test
    void badIndexAndTopicAre400WithNomadsText() throws Exception {
        HttpResponse<String> index = http.send(HttpRequest.newBuilder(uri("/v1/event/stream?index=abc")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(index.statusCode()).isEqualTo(400);
        assertThat(index.body()).contains("Unable to parse index");
        HttpResponse<String> topic = http.send(HttpRequest.newBuilder(uri("/v1/event/stream?topic=Allocation:a:b")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(topic.statusCode()).isEqualTo(400);
        assertThat(topic.body()).contains("Invalid topic query", "Invalid key value pair for topic");
    }
}
