package dev.berth.api;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.config.BerthProperties;
import dev.berth.support.AgentIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Forced GC endpoints and task logs followed across a rotation, on a real agent (mock_driver and raw_exec). */
@AgentIntegrationTest
class GcAndLogsApiTest {

    @LocalServerPort
    int port;

    @Autowired
    BerthProperties props;

    final HttpClient http = HttpClient.newHttpClient();
    final JsonMapper json = JsonMapper.builder().build();
    final List<String> created = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (String id : created) {
            send("DELETE", "/v1/client/allocation/" + id);
        }
    }

    HttpResponse<String> send(String method, String path) throws Exception {
        return send(method, path, null);
    }

    HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(120))
                .header("Content-Type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    String submit(String type, String task) throws Exception {
        String id = UUID.randomUUID().toString();
        String body = """
                {"ID":"%s","Name":"gc.app[0]","JobID":"gc","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"app",
                 "Job":{"ID":"gc","Name":"gc","Type":"%s","TaskGroups":[{"Name":"app","Count":1,
                   "RestartPolicy":{"Attempts":0,"Mode":"fail","Interval":60000000000,"Delay":1000000000},
                   "Tasks":[%s]}]}}""".formatted(id, type, task);
        HttpResponse<String> r = send("PUT", "/v1/client/allocation/" + id, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        created.add(id);
        return id;
    }

    static String mock(String runFor) {
        return """
                {"Name":"t","Driver":"mock_driver","Config":{"run_for":"%s","stdout_string":"hi\\n"},"Resources":{"CPU":10,"MemoryMB":16}}"""
                .formatted(runFor);
    }

    String status(String id) throws Exception {
        JsonNode n = json.readTree(send("GET", "/v1/allocation/" + id).body());
        return n.path("ClientStatus").asString();
    }

    String prometheus() throws Exception {
        return send("GET", "/actuator/prometheus").body();
    }

    @Test
    void gcOfOneAllocRefusesARunningOneAndDestroysATerminalOne() throws Exception {
        String running = submit("service", mock("1000s"));
        String done = submit("batch", mock("10ms"));
        await().atMost(Duration.ofSeconds(30)).until(() -> status(done).equals("complete") && status(running).equals("running"));
        Path doneDir = props.allocDir().resolve(done);
        // the task's "hi\n" reaches its log file through the pump; GC then frees at least those bytes
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(doneDir.resolve("alloc/logs/t.stdout.0"))
                && Files.size(doneDir.resolve("alloc/logs/t.stdout.0")) == 3);

        HttpResponse<String> refused = send("POST", "/v1/client/allocation/" + running + "/gc");
        assertThat(refused.statusCode()).isEqualTo(409);
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(json.readTree(refused.body()).path("detail").asString())
                .isEqualTo("No such allocation on client, or allocation not eligible for GC");
        assertThat(status(running)).isEqualTo("running");

        HttpResponse<String> unknown = send("POST", "/v1/client/allocation/" + UUID.randomUUID() + "/gc");
        assertThat(unknown.statusCode()).isEqualTo(404);

        // await until the terminal alloc's run loop finished its postrun (eligible), then collect it
        await().atMost(Duration.ofSeconds(10)).until(() -> send("POST", "/v1/client/allocation/" + done + "/gc").statusCode() == 200);
        assertThat(send("GET", "/v1/allocation/" + done).statusCode()).isEqualTo(404);
        assertThat(doneDir).doesNotExist();
        assertThat(prometheus()).containsPattern("berth_client_gc_allocs_destroyed_total\\{reason=\"forced\"} [1-9]")
                .containsPattern("berth_client_gc_freed_bytes_total [1-9]");
    }

    @Test
    void gcOfTheNodeDestroysEveryTerminalAllocAndNothingElse() throws Exception {
        String running = submit("service", mock("1000s"));
        String a = submit("batch", mock("10ms"));
        String b = submit("batch", mock("10ms"));
        await().atMost(Duration.ofSeconds(30)).until(() -> status(a).equals("complete") && status(b).equals("complete"));

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(send("POST", "/v1/client/gc").statusCode()).isEqualTo(200);
            assertThat(send("GET", "/v1/allocation/" + a).statusCode()).isEqualTo(404);
            assertThat(send("GET", "/v1/allocation/" + b).statusCode()).isEqualTo(404);
        });
        assertThat(status(running)).isEqualTo("running");
        assertThat(props.allocDir().resolve(running)).exists();
    }

    @Test
    void followingStdoutStreamsAcrossARotation() throws Exception {
        // a bit over 1 MiB at once (rotates into .1 at the 1 MiB limit), then a marker, then it keeps running
        String task = """
                {"Name":"w","Driver":"raw_exec","Config":{"command":"/bin/sh","args":["-c",
                  "head -c 1100000 /dev/zero | tr '\\\\0' a; echo; sleep 1; echo AFTER-ROTATION; exec sleep 1000"]},
                 "LogConfig":{"MaxFiles":2,"MaxFileSizeMB":1},"Resources":{"CPU":10,"MemoryMB":16}}""";
        String id = submit("service", task);
        await().atMost(Duration.ofSeconds(30)).until(() -> status(id).equals("running"));

        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/client/fs/logs/" + id
                + "?task=w&type=stdout&follow=true&plain=true&origin=start&offset=0")).timeout(Duration.ofSeconds(60)).build();
        HttpResponse<InputStream> resp = http.send(req, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(resp.statusCode()).isEqualTo(200);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        Thread reader = Thread.ofVirtual().start(() -> {
            byte[] buf = new byte[64 * 1024];
            try (InputStream in = resp.body()) {
                int n;
                // bounded: never more than 4 MiB, whatever the server sends
                while (got.size() < 4 * 1024 * 1024 && (n = in.read(buf)) >= 0) {
                    synchronized (got) {
                        got.write(buf, 0, n);
                    }
                }
            } catch (java.io.IOException e) {
                // closed by the test
            }
        });
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                synchronized (got) {
                    return got.toString(StandardCharsets.US_ASCII).contains("AFTER-ROTATION");
                }
            });
        } finally {
            resp.body().close();
            reader.interrupt();
        }
        String text;
        synchronized (got) {
            text = got.toString(StandardCharsets.US_ASCII);
        }
        assertThat(text).startsWith("aaaa").contains("a\nAFTER-ROTATION\n");
        assertThat(text.chars().filter(c -> c == 'a').count()).isEqualTo(1_100_000L);
        Path logs = props.allocDir().resolve(id).resolve("alloc/logs");
        assertThat(Files.size(logs.resolve("w.stdout.0"))).isEqualTo(1024 * 1024);
        assertThat(logs.resolve("w.stdout.1")).exists();
        assertThat(Files.isRegularFile(props.allocDir().resolve(id).resolve("w/.berth/stdout.fifo"))).isFalse();
        // the FIFO itself is not readable through the fs API: it would block the request and steal the pump's data
        for (String endpoint : new String[] {"cat", "readat", "stream"}) {
            HttpResponse<String> fifo = send("GET", "/v1/client/fs/" + endpoint + "/" + id + "?path=w/.berth/stdout.fifo&offset=0&follow=false");
            assertThat(fifo.statusCode()).as(endpoint).isEqualTo(400);
            assertThat(fifo.body()).contains("is not a regular file");
        }
    }
}
