package dev.berth.api;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springdoc.webmvc.api.OpenApiWebMvcResource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * springdoc is not part of the agent's context: its child context starts on the first request for the OpenAPI
 * document or Swagger UI, documents the agent's endpoints, and starts again after the agent's servlet context was
 * stopped (a paused test context, a restart).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "berth.data-dir=${java.io.tmpdir}/berth-apidocs-it-${random.uuid}",
        "berth.drivers.mock.enabled=true",
        "berth.acl.enabled=false",
        "server.address=127.0.0.1"
})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ApiDocsOnFirstUseTest {

    private static final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    ConfigurableApplicationContext agent;

    @Autowired
    FilterRegistrationBean<ApiDocsFilter> apiDocsFilter;

    @Autowired
    JsonMapper json;

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static boolean isSpringdocOrSwagger(Class<?> type) {
        return type != null && (type.getName().startsWith("org.springdoc.") || type.getName().startsWith("io.swagger."));
    }

    @Test
    @Order(1)
    void springdocStartsOnTheFirstRequestAndDocumentsTheAgent() throws Exception {
        ApiDocsFilter filter = apiDocsFilter.getFilter();
        assertThat(filter.childContext()).as("no API docs context before the first request").isNull();
        assertThat(Arrays.stream(agent.getBeanDefinitionNames()).map(agent::getType)
                .filter(ApiDocsOnFirstUseTest::isSpringdocOrSwagger)).as("springdoc beans in the agent's context").isEmpty();

        HttpResponse<String> document = get("/v3/api-docs");
        assertThat(document.statusCode()).isEqualTo(200);
        JsonNode paths = json.readTree(document.body()).path("paths");
        assertThat(paths.has("/v1/agent/health")).isTrue();
        assertThat(paths.has("/v1/client/allocation/{id}")).isTrue();
        assertThat(paths.path("/v1/client/allocation/{id}").has("put")).isTrue();
        assertThat(filter.childContext()).isNotNull();
        assertThat(filter.childContext().getParent()).isSameAs(agent);
        assertThat(filter.childContext().getBeansOfType(OpenApiWebMvcResource.class)).hasSize(1);
        assertThat(agent.getBeanNamesForType(OpenApiWebMvcResource.class)).isEmpty();

        assertThat(get("/v3/api-docs.yaml").body()).startsWith("openapi: ");
        assertThat(json.readTree(get("/v3/api-docs/swagger-config").body()).path("url").asString())
                .isEqualTo("/v3/api-docs");
        HttpResponse<String> welcome = get("/swagger-ui.html");
        assertThat(welcome.statusCode()).isEqualTo(302);
        assertThat(welcome.headers().firstValue("Location")).hasValue("/swagger-ui/index.html");
        HttpResponse<String> page = get("/swagger-ui/index.html");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("swagger-ui-bundle.js");
        assertThat(get("/swagger-ui/swagger-ui-bundle.js").statusCode()).isEqualTo(200);
        assertThat(get("/swagger-ui/swagger-initializer.js").body()).contains("window.ui");
    }

    @Test
    @Order(2)
    void theChildGoesWithTheServletContextAndComesBackOnTheNextRequest() throws Exception {
        ApiDocsFilter filter = apiDocsFilter.getFilter();
        assertThat(get("/v3/api-docs").statusCode()).isEqualTo(200);
        ApiDocsContext first = filter.childContext();

        filter.destroy();
        assertThat(first.isActive()).isFalse();
        assertThat(filter.childContext()).isNull();

        assertThat(get("/v3/api-docs").statusCode()).isEqualTo(200);
        assertThat(filter.childContext()).isNotNull().isNotSameAs(first);
        assertThat(get("/v1/agent/health").statusCode()).isEqualTo(200);
    }
}
