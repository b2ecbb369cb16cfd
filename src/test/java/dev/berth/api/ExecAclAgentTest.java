package dev.berth.api;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.berth.support.ExecClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code alloc exec} with ACLs on needs a write token, from a header or from the first frame ({@code ws_handshake}), and
 * refuses as Nomad does: after the upgrade, with a close frame. The properties are exactly
 * {@link SecuredAgentIntegrationTest}'s, so both share one agent. An unknown allocation is how a permitted request shows
 * it got past the check without running anything.
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
class ExecAclAgentTest {

    static final Duration WAIT = Duration.ofSeconds(20);

    @LocalServerPort
    int port;

    final String alloc = UUID.randomUUID().toString();

    String closeWith(Map<String, String> headers, String query, String firstFrame) throws Exception {
        try (ExecClient exec = ExecClient.open(port, alloc, "t", List.of("id"), false, headers, query)) {
            if (firstFrame != null) {
                exec.sendRaw(firstFrame);
            }
            return exec.closeStatus(WAIT);
        }
    }

    @Test
    void withoutATokenOrWithAReadTokenExecIsPermissionDenied() throws Exception {
        assertThat(closeWith(Map.of(), null, null)).isEqualTo("1011 Permission denied");
        assertThat(closeWith(Map.of("X-Nomad-Token", "read-secret"), null, null)).isEqualTo("1011 Permission denied");
        assertThat(closeWith(Map.of("X-Nomad-Token", "nope"), null, null)).isEqualTo("1008 ACL token not found");
    }

    @Test
    void aWriteTokenFromAHeaderOrTheHandshakeFrameIsLetThrough() throws Exception {
        String unknown = "1008 Unknown allocation \"" + alloc + "\"";
        assertThat(closeWith(Map.of("X-Nomad-Token", "write-secret"), null, null)).isEqualTo(unknown);
        assertThat(closeWith(Map.of("Authorization", "Bearer write-secret"), null, null)).isEqualTo(unknown);
        assertThat(closeWith(Map.of(), "ws_handshake=true", "{\"version\":1,\"auth_token\":\"write-secret\"}")).isEqualTo(unknown);
        assertThat(closeWith(Map.of(), "ws_handshake=true", "{\"version\":1,\"auth_token\":\"read-secret\"}"))
                .isEqualTo("1011 Permission denied");
        assertThat(closeWith(Map.of("X-Nomad-Token", "read-secret"), "ws_handshake=true",
                "{\"version\":1,\"auth_token\":\"write-secret\"}")).isEqualTo("1008 handshake auth token mismatched auth header token");
    }

    @Test
    void aPageOfAnotherOriginCannotOpenItTheAgentsOwnCan() throws Exception {
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> ExecClient.open(port, alloc, "t", List.of("id"), false,
                Map.of("Origin", "http://evil.example", "X-Nomad-Token", "write-secret"), null)))
                .hasRootCauseMessage("Unexpected HTTP response status code 403");
        // the agent's own origin (its web UI) may
        assertThat(closeWith(Map.of("Origin", "http://127.0.0.1:" + port, "X-Nomad-Token", "write-secret"), null, null))
                .isEqualTo("1008 Unknown allocation \"" + alloc + "\"");
    }
}
