package dev.berth.api;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import dev.berth.config.BerthProperties;
import dev.berth.support.AgentIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The filesystem API end to end over HTTP, against a real allocation directory. */
@AgentIntegrationTest
class FileSystemApiTest {

    @Autowired
    BerthProperties properties;

    @Autowired
    Environment environment;

    final HttpClient http = HttpClient.newHttpClient();
    String allocId;
    Path allocDir;

    @BeforeEach
    void allocDir() throws IOException {
        allocId = UUID.randomUUID().toString();
        allocDir = properties.allocDir().resolve(allocId);
        Files.createDirectories(allocDir.resolve("alloc/logs"));
        Files.createDirectories(allocDir.resolve("web/secrets"));
        Files.writeString(allocDir.resolve("alloc/logs/web.stdout.0"), "line one\n");
        Files.writeString(allocDir.resolve("alloc/logs/web.stdout.1"), "line two\n");
        Files.writeString(allocDir.resolve("web/secrets/token"), "TOPSECRET");
        Files.writeString(allocDir.resolve("alloc/data.json"), "{\"a\":1}");
        Files.writeString(allocDir.getParent().resolve("outside.txt"), "OUTSIDE");
        Files.createSymbolicLink(allocDir.resolve("alloc/etc"), Path.of("/etc"));
    }

    HttpResponse<String> get(String pathAndQuery) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + environment.getProperty("local.server.port") + pathAndQuery);
        return http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void listsAndStatsInNomadShape() throws Exception {
        HttpResponse<String> ls = get("/v1/client/fs/ls/" + allocId + "?path=/alloc/logs");
        assertThat(ls.statusCode()).isEqualTo(200);
        assertThat(ls.body()).contains("\"Name\":\"web.stdout.0\"", "\"IsDir\":false", "\"Size\":9", "\"FileMode\":\"-rw-r--r--\"",
                "\"ModTime\":").doesNotContain("ContentType");

        HttpResponse<String> stat = get("/v1/client/fs/stat/" + allocId + "?path=alloc/data.json");
        assertThat(stat.body()).contains("\"Name\":\"data.json\"", "\"ContentType\":\"application/json\"");
        assertThat(get("/v1/client/fs/stat/" + allocId).statusCode()).isEqualTo(400);
        assertThat(get("/v1/client/fs/ls/" + allocId + "?path=/nope").statusCode()).isEqualTo(404);
        assertThat(get("/v1/client/fs/ls/not-an-alloc").statusCode()).isEqualTo(404);
    }

    @Test
    void catAndReadAt() throws Exception {
        assertThat(get("/v1/client/fs/cat/" + allocId + "?path=alloc/logs/web.stdout.1").body()).isEqualTo("line two\n");
        assertThat(get("/v1/client/fs/readat/" + allocId + "?path=alloc/logs/web.stdout.1&offset=5&limit=3").body()).isEqualTo("two");
        assertThat(get("/v1/client/fs/readat/" + allocId + "?path=alloc/logs/web.stdout.1").statusCode()).isEqualTo(400);
        HttpResponse<String> dir = get("/v1/client/fs/cat/" + allocId + "?path=alloc/logs");
        assertThat(dir.statusCode()).isEqualTo(400);
        assertThat(dir.body()).contains("is a directory");
    }

    @ParameterizedTest
    @ValueSource(strings = {"../outside.txt", "alloc/../../outside.txt", "alloc/etc/passwd", "/../outside.txt",
            "web/secrets/token", "alloc/etc/shadow"})
    void hostilePathsAreRefusedWithProblemDetailsAndLeakNothing(String path) throws Exception {
        for (String endpoint : new String[] {"cat", "readat", "stream"}) {
            HttpResponse<String> response = get("/v1/client/fs/" + endpoint + "/" + allocId + "?offset=0&follow=false&path=" + q(path));
            assertThat(response.statusCode()).as(endpoint + " " + path).isEqualTo(403);
            assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(response.body()).doesNotContain("OUTSIDE", "TOPSECRET", "root:");
        }
    }

    @Test
    void encodedTraversalIsRefused() throws Exception {
        // %2e%2e decodes to ".." once in the container; the guard sees and refuses it
        HttpResponse<String> response = get("/v1/client/fs/cat/" + allocId + "?path=%2e%2e/outside.txt");
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.body()).doesNotContain("OUTSIDE");
    }

    /** {@code ?path=%ZZ} (a broken percent-escape; java.net.URI refuses to build it, so the request is written raw) was a 500. */
    @Test
    void aMalformedPercentEscapeInTheQueryIsABadRequest() throws Exception {
        int port = Integer.parseInt(environment.getProperty("local.server.port"));
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            socket.getOutputStream().write(("GET /v1/client/fs/cat/" + allocId + "?path=%ZZ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(response).startsWith("HTTP/1.1 400").containsIgnoringCase("Content-Type: application/problem+json")
                    .contains("\"detail\":\"Invalid query parameter encoding\"");
        }
    }

    @Test
    void logsAcrossRotationPlainAndFramed() throws Exception {
        HttpResponse<String> plain = get("/v1/client/fs/logs/" + allocId + "?task=web&type=stdout&plain=true");
        assertThat(plain.statusCode()).isEqualTo(200);
        assertThat(plain.body()).isEqualTo("line one\nline two\n");
        HttpResponse<String> framed = get("/v1/client/fs/logs/" + allocId + "?task=web&type=stdout&origin=end&offset=9");
        assertThat(framed.body()).startsWith("{\"Offset\":9,\"Data\":\"").contains("\"File\":\"alloc/logs/web.stdout.1\"");
        assertThat(get("/v1/client/fs/logs/" + allocId + "?task=web").statusCode()).isEqualTo(400);
        assertThat(get("/v1/client/fs/logs/" + allocId + "?task=web&type=stdout&origin=middle").statusCode()).isEqualTo(400);
        assertThat(get("/v1/client/fs/logs/" + allocId + "?task=db&type=stdout").statusCode()).isEqualTo(404);
    }

    /**
     * A user's {@code curl …&plain=true&follow=true} of a quiet task held a request open forever (plain mode has no
     * heartbeat to notice a gone client), so agent shutdown waited out its grace period: a follower now ends when the
     * allocation's directory is gone (destroy) or the agent stops.
     */
    @Test
    void aPlainFollowerEndsWhenTheAllocationIsDestroyed() throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + environment.getProperty("local.server.port") + "/v1/client/fs/logs/" + allocId
                + "?task=web&type=stdout&plain=true&follow=true");
        var response = http.sendAsync(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> !response.isDone());
        try (var files = Files.walk(allocDir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        await().atMost(Duration.ofSeconds(10)).until(response::isDone);
        assertThat(response.get().body()).isEqualTo("line one\nline two\n");
    }
}
