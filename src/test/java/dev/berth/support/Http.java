package dev.berth.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** Requests against the agent on loopback: plain GETs, and JSON requests with any method. */
public final class Http {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Http() {
    }

    public static HttpResponse<String> get(int port, String pathAndQuery) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** {@link #send(int, String, String, String, Duration)} with a two-minute timeout. */
    public static HttpResponse<String> send(int port, String method, String pathAndQuery, String jsonBody)
            throws IOException, InterruptedException {
        return send(port, method, pathAndQuery, jsonBody, Duration.ofSeconds(120));
    }

    /** A {@code Content-Type: application/json} request; a null body sends none. */
    public static HttpResponse<String> send(int port, String method, String pathAndQuery, String jsonBody, Duration timeout)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery)).timeout(timeout)
                .header("Content-Type", "application/json");
        b.method(method, jsonBody == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(jsonBody));
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sends a request that must answer 200 (the body in the failure message otherwise) and returns its JSON body. */
    public static JsonNode ok(int port, String method, String pathAndQuery, String jsonBody) throws IOException, InterruptedException {
        HttpResponse<String> r = send(port, method, pathAndQuery, jsonBody);
        assertThat(r.statusCode()).as(pathAndQuery + " " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }
}
