package dev.berth.api;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.berth.support.ExecClient;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code berth.exec.enabled=false}: every exec is refused as Nomad's {@code disable_remote_exec} refuses it. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "berth.data-dir=${java.io.tmpdir}/berth-noexec-it-${random.uuid}",
        "berth.drivers.mock.enabled=true",
        "berth.acl.enabled=false",
        "server.address=127.0.0.1",
        "berth.exec.enabled=false"
})
class ExecDisabledAgentTest {

    @LocalServerPort
    int port;

    @Test
    void everyExecIsPermissionDenied() throws Exception {
        try (ExecClient exec = ExecClient.open(port, UUID.randomUUID().toString(), "t", List.of("id"), false)) {
            assertThat(exec.closeStatus(Duration.ofSeconds(20))).isEqualTo("1011 Permission denied");
            assertThat(exec.frames()).isEmpty();
        }
    }
}
