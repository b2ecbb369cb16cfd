package dev.berth.api;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole agent with ACLs on, over real HTTP on loopback: anonymous metrics and probes, token-guarded API and
 * OpenAPI document, and problem-details errors from the real dispatcher.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "berth.data-dir=${java.io.tmpdir}/berth-acl-it-${random.uuid}",
        "berth.drivers.mock.enabled=true",
        "server.address=127.0.0.1",
        "berth.acl.enabled=true",
        "berth.acl.tokens[0].name=reader",
        "berth.acl.tokens[0].secret=read-secret",
        "berth.acl.tokens[0].scope=read",
        "berth.acl.tokens[1].name=operator",
        "berth.acl.tokens[1].secret=write-secret",
        "berth.acl.tokens[1].scope=write"
})
class SecuredAgentIntegrationTest {

    private static final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    JsonMapper json;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    private HttpResponse<String> send(String method, String path, String token) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, method.equals("GET") ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString("{}"))
                .header("Content-Type", "application/json");
        if (token != null) {
            request.header("X-Nomad-Token", token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String contentType(HttpResponse<?> response) {
        return response.headers().firstValue("Content-Type").orElse("");
    }

    @Test
    void prometheusAndProbesNeedNoToken() throws Exception {
        HttpResponse<String> scrape = send("GET", "/actuator/prometheus", null);
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.body()).contains("# TYPE jvm_");

        assertThat(send("GET", "/v1/metrics", null).statusCode()).isEqualTo(200);
        assertThat(send("GET", "/actuator/health/liveness", null).statusCode()).isEqualTo(200);
        HttpResponse<String> readiness = send("GET", "/actuator/health/readiness", null);
        assertThat(readiness.statusCode()).isEqualTo(200);
        assertThat(json.readTree(readiness.body()).path("status").asString()).isEqualTo("UP");
    }

    @Test
    void otherActuatorEndpointsNeedAToken() throws Exception {
        HttpResponse<String> info = send("GET", "/actuator/info", null);
        assertThat(info.statusCode()).isEqualTo(403);
        assertThat(contentType(info)).startsWith("application/problem+json");
        assertThat(send("GET", "/actuator/info", "read-secret").statusCode()).isEqualTo(200);
    }

    @Test
    void writesNeedTheWriteScope() throws Exception {
        HttpResponse<String> asReader = send("PUT", "/v1/client/allocation/a1", "read-secret");
        assertThat(asReader.statusCode()).isEqualTo(403);
        assertThat(json.readTree(asReader.body()).path("detail").asString()).isEqualTo("Permission denied");

        HttpResponse<String> asOperator = send("PUT", "/v1/client/allocation/a1", "write-secret");
        assertThat(asOperator.statusCode()).isNotEqualTo(403);
    }

    @Test
    void clientStatsNeedReadScope() throws Exception {
        assertThat(send("GET", "/v1/client/stats", null).statusCode()).isEqualTo(403);
        HttpResponse<String> stats = send("GET", "/v1/client/stats", "read-secret");
        assertThat(stats.statusCode()).isEqualTo(200);
        assertThat(contentType(stats)).startsWith("application/json");
    }

    @Test
    void badTokenIsRefusedWithNomadsText() throws Exception {
        HttpResponse<String> response = send("GET", "/v1/client/allocations", "wrong");
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(contentType(response)).startsWith("application/problem+json");
        assertThat(json.readTree(response.body()).path("detail").asString()).isEqualTo("ACL token not found");
    }

    @Test
    void unknownRouteIsAProblem404() throws Exception {
        HttpResponse<String> response = send("GET", "/v1/no/such/route", "read-secret");
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(contentType(response)).startsWith("application/problem+json");
        assertThat(json.readTree(response.body()).path("status").asInt()).isEqualTo(404);
    }

    @Test
    void openApiDocumentNeedsReadAndListsEveryV1Endpoint() throws Exception {
        assertThat(send("GET", "/v3/api-docs", null).statusCode()).isEqualTo(403);
        assertThat(send("GET", "/swagger-ui.html", null).statusCode()).isEqualTo(403);

        HttpResponse<String> response = send("GET", "/v3/api-docs", "read-secret");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode document = json.readTree(response.body());
        assertThat(document.path("openapi").asString()).startsWith("3.");
        assertThat(document.path("info").path("title").asString()).isEqualTo("Berth node agent API");
        assertThat(document.path("components").path("securitySchemes").path("nomadToken").path("name").asString())
                .isEqualTo("X-Nomad-Token");

        Set<String> documented = new TreeSet<>(document.path("paths").propertyNames());
        Set<String> served = new TreeSet<>();
        mappings.getHandlerMethods().keySet().forEach(info -> info.getPatternValues().stream()
                .filter(pattern -> pattern.startsWith("/v1/"))
                .forEach(served::add));
        assertThat(served).as("the agent serves /v1 endpoints").isNotEmpty();
        assertThat(documented).containsAll(served);
    }
}
