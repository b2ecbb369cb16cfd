package dev.berth.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

import dev.berth.alloc.AllocExceptions;
import dev.berth.alloc.admission.AdmissionException;
import dev.berth.alloc.fs.FsAccessException;
import dev.berth.alloc.gc.NotEligibleForGcException;
import dev.berth.alloc.spec.SpecValidationException;
import dev.berth.job.JobException;

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

        /** Throws the feature exception named {@code kind}, as a feature package would. */
        @GetMapping("/v1/domain/{kind}")
        String domain(@PathVariable String kind) throws Exception {
            throw switch (kind) {
                case "spec" -> new SpecValidationException("Tasks[0].Name", "Missing task name");
                case "admission" -> new AdmissionException("memory", "Allocation does not fit: memory exhausted");
                case "unknown-alloc" -> new AllocExceptions.UnknownAllocException("a1");
                case "unknown-task" -> new AllocExceptions.UnknownTaskException();
                case "lifecycle" -> new AllocExceptions.InvalidLifecycleRequestException("Unknown signal");
                case "alloc-state" -> new AllocExceptions.AllocStateException("Task not running");
                case "gc" -> new NotEligibleForGcException();
                case "fs-escape" -> new FsAccessException(FsAccessException.Kind.ESCAPE, "Path escapes the alloc directory");
                case "fs-forbidden" -> new FsAccessException(FsAccessException.Kind.FORBIDDEN, "Permission denied");
                case "fs-malformed" -> new FsAccessException(FsAccessException.Kind.MALFORMED, "Bad offset");
                case "fs-missing" -> new FsAccessException(FsAccessException.Kind.NOT_FOUND, "no such file");
                case "job-invalid" -> new JobException(JobException.Kind.INVALID, "Missing job ID");
                case "job-missing" -> new JobException(JobException.Kind.NOT_FOUND, "job not found");
                case "job-stale" -> new JobException(JobException.Kind.STALE_INDEX, "Enforcing job modify index 3");
                default -> new IllegalArgumentException(kind);
            };
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

    /** Each feature exception through the one list in {@link DomainErrors}: its status and title, Nomad's text. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "spec,          400, Invalid allocation",
            "admission,     409, Allocation does not fit this node",
            "unknown-alloc, 404, Unknown allocation",
            "unknown-task,  404, Unknown task",
            "lifecycle,     400, Invalid request",
            "alloc-state,   409, Not allowed in the allocation's state",
            "gc,            409, Allocation not eligible for GC",
            "fs-escape,     403, Path escapes the alloc directory",
            "fs-forbidden,  403, Permission denied",
            "fs-malformed,  400, Bad request",
            "fs-missing,    404, Not found",
            "job-invalid,   400, Invalid job request",
            "job-missing,   404, Not found",
            "job-stale,     409, Job modified since the given index"})
    void featureExceptionsAreMappedByDomainErrors(String kind, int status, String title) {
        assertThat(mvc.get().uri("/v1/domain/" + kind))
                .hasStatus(status)
                .hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyJson().satisfies(json -> {
                    assertThat(json).extractingPath("$.title").isEqualTo(title);
                    assertThat(json).extractingPath("$.detail").asString().isNotEmpty()
                            .isNotEqualTo(ProblemDetailsAdvice.INTERNAL_ERROR);
                });
        assertThat(mvc.get().uri("/v1/domain/" + kind).header("User-Agent", "Go-http-client/1.1"))
                .hasStatus(status)
                .hasContentTypeCompatibleWith(MediaType.TEXT_PLAIN);
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
