package dev.berth.api;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.test.web.server.LocalServerPort;

import dev.berth.support.AgentIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests Tomcat refuses before any Spring code runs (an encoded slash or NUL in the path, characters a query may not
 * hold) came back as Tomcat's HTML error page. Every API error must be an RFC 9457 problem. The requests are written to
 * a raw socket because java.net.URI refuses to build most of them.
 */
@AgentIntegrationTest
class ContainerRejectionsTest {

    @LocalServerPort
    int port;

    String raw(String target) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"/v1/client/allocation/a%2Fb/stats", "/v1/client/allocation/a%5Cb/stats",
            "/v1/client/allocation/a%00b/stats", "/v1/client/fs/ls/x?path=a|b", "/v1/client/fs/ls/x?path={a}"})
    void areProblemDetailsNotHtml(String target) throws IOException {
        String response = raw(target);
        assertThat(response).startsWith("HTTP/1.1 400").containsIgnoringCase("Content-Type: application/problem+json")
                .contains("\"status\":400").contains("\"title\":\"Bad Request\"").doesNotContain("<html");
    }
}
