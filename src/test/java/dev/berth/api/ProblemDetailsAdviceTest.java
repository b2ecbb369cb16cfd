package dev.berth.api;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/** Every error a controller can produce comes back as an RFC 9457 problem with the right status. */
@WebMvcTest(controllers = ProblemDetailsAdviceTest.Endpoints.class)
@Import(ProblemDetailsAdviceTest.Endpoints.class)
class ProblemDetailsAdviceTest {

    record Body(String name, int count) {
    }

    @RestController
    static class Endpoints {
        @PutMapping(path = "/v1/things/{id}", consumes = MediaType.APPLICATION_JSON_VALUE)
        Body put(@PathVariable String id, @RequestBody Body body) {
            return body;
        }

        @GetMapping("/v1/things")
        String list(@RequestParam(defaultValue = "0") int offset) {
            return "[]";
        }

        @GetMapping("/v1/things/{id}")
        String get(@PathVariable String id) {
            if (id.equals("busy")) {
                throw new ApiException.Conflict("Allocation \"busy\" does not fit: memory exhausted");
            }
            throw new ApiException.NotFound("Unknown allocation \"" + id + "\"");
        }

        /** Reads the body itself, not through a converter: the size limit surfaces as some wrapped exception. */
        @PutMapping("/v1/raw")
        String raw() {
            throw new java.io.UncheckedIOException(new RequestBodyTooLargeException(64));
        }

        @GetMapping("/v1/broken")
        String broken() {
            throw new IllegalStateException("secret internal state at /var/lib/berth/x");
        }
    }

    @Autowired
    MockMvcTester mvc;

    @Test
    void apiExceptionCarriesNomadText() {
        assertThat(mvc.get().uri("/v1/things/a1"))
                .hasStatus(HttpStatus.NOT_FOUND)
                .hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyJson().satisfies(json -> {
                    assertThat(json).extractingPath("$.detail").isEqualTo("Unknown allocation \"a1\"");
                    assertThat(json).extractingPath("$.status").isEqualTo(404);
                    assertThat(json).extractingPath("$.instance").isEqualTo("/v1/things/a1");
                });
        assertThat(mvc.get().uri("/v1/things/busy"))
                .hasStatus(HttpStatus.CONFLICT)
                .hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyJson().extractingPath("$.detail").isEqualTo("Allocation \"busy\" does not fit: memory exhausted");
    }

    @Test
    void aClientAskingForTextGetsNomadsPlainErrorText() {
        // Nomad writes errors as text/plain; problem details stay the answer for everyone who does not ask for text
        assertThat(mvc.get().uri("/v1/things/a1").accept(MediaType.TEXT_PLAIN))
                .hasStatus(HttpStatus.NOT_FOUND)
                .hasContentTypeCompatibleWith(MediaType.TEXT_PLAIN)
                .hasBodyTextEqualTo("Unknown allocation \"a1\"");
    }

    @Test
    void nomadsOwnClientsGetThePlainErrorText() {
        assertThat(mvc.get().uri("/v1/things/a1").header("User-Agent", "Go-http-client/1.1"))
                .hasStatus(HttpStatus.NOT_FOUND)
                .hasContentTypeCompatibleWith(MediaType.TEXT_PLAIN)
                .hasBodyTextEqualTo("Unknown allocation \"a1\"");
    }

    @Test
    void malformedJsonIs400FailedToDecode() {
        assertThat(mvc.put().uri("/v1/things/a1").contentType(MediaType.APPLICATION_JSON).content("{\"name\": "))
                .hasStatus(HttpStatus.BAD_REQUEST)
                .hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyJson().extractingPath("$.detail").asString().startsWith("Failed to decode body: ")
                .doesNotContain("Source");
    }

    @Test
    void emptyBodyIsNomadsText() {
        assertThat(mvc.put().uri("/v1/things/a1").contentType(MediaType.APPLICATION_JSON).content(""))
                .hasStatus(HttpStatus.BAD_REQUEST)
                .bodyJson().extractingPath("$.detail").isEqualTo("Failed to decode body: Request body is empty");
    }

    @Test
    void wrongJsonTypeIs400() {
        assertThat(mvc.put().uri("/v1/things/a1").contentType(MediaType.APPLICATION_JSON)
                .content("{\"name\":\"x\",\"count\":\"many\"}"))
                .hasStatus(HttpStatus.BAD_REQUEST)
                .bodyJson().satisfies(json -> {
                    assertThat(json).extractingPath("$.detail")
                            .isEqualTo("Failed to decode body: json: cannot unmarshal string into field count of type int");
                    assertThat(json).extractingPath("$.field").isEqualTo("count");
                });
    }

    @Test
    void queryParameterTypeMismatchIs400() {
        assertThat(mvc.get().uri("/v1/things?offset=abc"))
                .hasStatus(HttpStatus.BAD_REQUEST)
                .hasContentType(MediaType.APPLICATION_PROBLEM_JSON);
    }

    @Test
    void unknownRouteIs404() {
        assertThat(mvc.get().uri("/v1/nothing/here"))
                .hasStatus(HttpStatus.NOT_FOUND)
                .hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyJson().extractingPath("$.detail").isEqualTo("No endpoint GET /v1/nothing/here");
    }

    @Test
    void wrongMethodIs405() {
        assertThat(mvc.delete().uri("/v1/things"))
                .hasStatus(HttpStatus.METHOD_NOT_ALLOWED)
                .hasContentType(MediaType.APPLICATION_PROBLEM_JSON);
    }

    @Test
    void wrongContentTypeIs415() {
        assertThat(mvc.put().uri("/v1/things/a1").contentType(MediaType.TEXT_PLAIN).content("name=x"))
                .hasStatus(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
                .hasContentType(MediaType.APPLICATION_PROBLEM_JSON);
    }

    @Test
    void theBodySizeLimitIs413HoweverItIsWrapped() {
        assertThat(mvc.put().uri("/v1/raw").contentType(MediaType.APPLICATION_JSON).content("{}"))
                .hasStatus(HttpStatus.CONTENT_TOO_LARGE)
                .hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyJson().extractingPath("$.detail")
                .isEqualTo("Request body too large: the limit is 64 bytes (berth.api.max-request-body-size)");
    }

    @Test
    void unexpectedFailureIs500WithoutInternals() {
        assertThat(mvc.get().uri("/v1/broken"))
                .hasStatus(HttpStatus.INTERNAL_SERVER_ERROR)
                .hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyText().doesNotContain("secret internal state").doesNotContain("IllegalStateException")
                .doesNotContain("at dev.berth").contains(ProblemDetailsAdvice.INTERNAL_ERROR);
    }
}
