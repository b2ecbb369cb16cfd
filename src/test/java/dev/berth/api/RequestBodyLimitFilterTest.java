package dev.berth.api;

import java.io.BufferedReader;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletRequest;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.json.ProblemDetailJacksonMixin;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The body limit in isolation: refusal by declared length, counting of bodies without one, and what it leaves alone. */
class RequestBodyLimitFilterTest {

    static final int LIMIT = 100;

    /** As Boot configures it: a problem's properties at the top level. */
    final JsonMapper json = JsonMapper.builder().addMixIn(ProblemDetail.class, ProblemDetailJacksonMixin.class).build();
    final RequestBodyLimitFilter filter = new RequestBodyLimitFilter(LIMIT, json);
    final AtomicReference<ServletRequest> passedOn = new AtomicReference<>();
    final FilterChain chain = (request, response) -> passedOn.set(request);

    /** A request whose body arrives without a length, as a chunked one does. */
    static MockHttpServletRequest chunked(String method, String uri, int bodyBytes) {
        MockHttpServletRequest request = new MockHttpServletRequest(method, uri) {
            @Override
            public long getContentLengthLong() {
                return -1;
            }

            @Override
            public int getContentLength() {
                return -1;
            }
        };
        request.setContent("x".repeat(bodyBytes).getBytes(StandardCharsets.US_ASCII));
        return request;
    }

    @Test
    void aDeclaredLengthOverTheLimitIs413WithoutReadingOrPassingOn() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("PUT", "/v1/client/allocation/a1");
        request.setContent(new byte[LIMIT + 1]);
        MockHttpServletResponse response = new MockHttpServletResponse();

        filter.doFilter(request, response, chain);

        assertThat(passedOn.get()).as("the controller is never reached").isNull();
        assertThat(request.getInputStream().available()).as("not a byte of the body was read").isEqualTo(LIMIT + 1);
        assertThat(response.getStatus()).isEqualTo(413);
        assertThat(response.getContentType()).isEqualTo("application/problem+json");
        assertThat(response.getHeader("Connection")).isEqualTo("close");
        JsonNode problem = json.readTree(response.getContentAsString());
        assertThat(problem.path("status").asInt()).isEqualTo(413);
        assertThat(problem.path("detail").asString())
                .isEqualTo("Request body too large: the limit is 100 bytes (berth.api.max-request-body-size)");
        assertThat(problem.path("limit").asLong()).isEqualTo(LIMIT);
        assertThat(problem.path("instance").asString()).isEqualTo("/v1/client/allocation/a1");
        assertThat(response.getContentLength()).isEqualTo(response.getContentAsByteArray().length);
    }

    @Test
    void aDeclaredLengthOfExactlyTheLimitIsPassedOn() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/v1/client/allocation/a1/restart");
        request.setContent(new byte[LIMIT]);

        filter.doFilter(request, new MockHttpServletResponse(), chain);

        assertThat(passedOn.get()).isNotNull();
        assertThat(passedOn.get().getInputStream().readAllBytes()).hasSize(LIMIT);
    }

    @Test
    void aBodyWithoutLengthIsCountedWhileRead() throws Exception {
        filter.doFilter(chunked("PUT", "/v1/client/allocation/a1", LIMIT + 1), new MockHttpServletResponse(), chain);

        InputStream in = passedOn.get().getInputStream();
        assertThat(in.readNBytes(LIMIT)).hasSize(LIMIT);
        assertThatThrownBy(in::read).isInstanceOf(RequestBodyTooLargeException.class)
                .satisfies(e -> assertThat(((RequestBodyTooLargeException) e).limit()).isEqualTo(LIMIT));
    }

    @Test
    void aBulkReadThatCrossesTheLimitFails() throws Exception {
        filter.doFilter(chunked("PUT", "/v1/client/allocation/a1", 10 * LIMIT), new MockHttpServletResponse(), chain);

        assertThatThrownBy(() -> passedOn.get().getInputStream().readAllBytes()).isInstanceOf(RequestBodyTooLargeException.class);
    }

    @Test
    void theReaderIsBoundedToo() throws Exception {
        filter.doFilter(chunked("POST", "/v1/client/allocation/a1/signal", LIMIT + 50), new MockHttpServletResponse(), chain);

        BufferedReader reader = passedOn.get().getReader();
        assertThatThrownBy(() -> reader.transferTo(java.io.Writer.nullWriter())).isInstanceOf(RequestBodyTooLargeException.class);
    }

    @Test
    void aBodyWithoutLengthUpToTheLimitReadsWhole() throws Exception {
        filter.doFilter(chunked("PUT", "/v1/client/allocation/a1", LIMIT), new MockHttpServletResponse(), chain);

        assertThat(passedOn.get().getInputStream().readAllBytes()).hasSize(LIMIT);
    }

    @Test
    void otherMethodsAndPathsAreLeftAlone() throws Exception {
        for (MockHttpServletRequest request : new MockHttpServletRequest[] {
                new MockHttpServletRequest("DELETE", "/v1/client/allocation/a1"),
                new MockHttpServletRequest("PUT", "/actuator/loggers/x")}) {
            request.setContent(new byte[LIMIT + 1]);
            passedOn.set(null);
            filter.doFilter(request, new MockHttpServletResponse(), chain);
            assertThat(passedOn.get()).isSameAs(request);
        }
    }

    @Test
    void aNonPositiveLimitIsRefused() {
        assertThatThrownBy(() -> new RequestBodyLimitFilter(0, json)).isInstanceOf(IllegalArgumentException.class);
    }
}
