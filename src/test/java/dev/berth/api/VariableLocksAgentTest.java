package dev.berth.api;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Variables on an agent with ACLs on and a clock the test moves forward: a lock nobody renews lapses after twice its
 * TTL (renewal refused), is kept through its delay, then goes; the read and write scopes apply as for jobs, and locks
 * are shown to write-scope (management) tokens only.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "berth.data-dir=${java.io.tmpdir}/berth-vars-it-${random.uuid}",
        "server.address=127.0.0.1",
        "berth.acl.enabled=true",
        "berth.acl.tokens[0].name=reader",
        "berth.acl.tokens[0].secret=read-secret",
        "berth.acl.tokens[0].scope=read",
        "berth.acl.tokens[1].name=operator",
        "berth.acl.tokens[1].secret=write-secret",
        "berth.acl.tokens[1].scope=write"
})
class VariableLocksAgentTest {

    /** The system clock plus an offset the test moves: the rest of the agent keeps running on real time. */
    static final class AheadClock extends Clock {
        volatile Duration ahead = Duration.ZERO;

        @Override
        public Instant instant() {
            return Instant.now().plus(ahead);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    @TestConfiguration
    static class Clocks {
        @Bean
        @Primary
        AheadClock aheadClock() {
            return new AheadClock();
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    AheadClock clock;

    final JsonMapper json = JsonMapper.builder().build();

    HttpResponse<String> send(String method, String path, String body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json").header("X-Nomad-Token", token)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anUnrenewedLockLapsesIsKeptThroughItsDelayAndThenGoes() throws Exception {
        HttpResponse<String> acquired = send("PUT", "/v1/var/jobs/leader?lock-acquire",
                "{\"Lock\":{\"TTL\":\"10s\",\"LockDelay\":\"30s\"}}", "write-secret");
        assertThat(acquired.statusCode()).as(acquired.body()).isEqualTo(200);
        String id = json.readTree(acquired.body()).path("Lock").path("ID").asString();
        String renew = "{\"Lock\":{\"ID\":\"" + id + "\"}}";

        clock.ahead = clock.ahead.plusSeconds(15);
        assertThat(send("PUT", "/v1/var/jobs/leader?lock-renew", renew, "write-secret").statusCode()).isEqualTo(200);

        clock.ahead = clock.ahead.plusSeconds(21); // past twice the TTL since the renewal
        HttpResponse<String> late = send("PUT", "/v1/var/jobs/leader?lock-renew", renew, "write-secret");
        assertThat(late.statusCode()).isEqualTo(409);
        assertThat(json.readTree(late.body()).path("detail").asString()).isEqualTo("attempting to modify locked variable");
        assertThat(send("PUT", "/v1/var/jobs/leader?lock-acquire", "{}", "write-secret").statusCode())
                .as("the lapsed lock is still held through its delay").isEqualTo(409);

        clock.ahead = clock.ahead.plusSeconds(30);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                json.readTree(send("GET", "/v1/var/jobs/leader", null, "write-secret").body()).has("Lock")).isFalse());
        HttpResponse<String> next = send("PUT", "/v1/var/jobs/leader?lock-acquire", "{}", "write-secret");
        assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
        assertThat(json.readTree(next.body()).path("Lock").path("ID").asString()).isNotEqualTo(id);
    }

    @Test
    void readAndWriteScopesApplyAsForJobsAndLocksAreShownToWriteTokensOnly() throws Exception {
        assertThat(send("PUT", "/v1/var/scoped?lock-acquire", "{\"Items\":{\"k\":\"v\"}}", "read-secret").statusCode()).isEqualTo(403);
        assertThat(send("PUT", "/v1/var/scoped?lock-acquire", "{\"Items\":{\"k\":\"v\"}}", "write-secret").statusCode()).isEqualTo(200);
        assertThat(send("GET", "/v1/var/scoped", null, "nope").statusCode()).isEqualTo(403);

        JsonNode asReader = json.readTree(send("GET", "/v1/var/scoped", null, "read-secret").body());
        assertThat(asReader.path("Items").path("k").asString()).isEqualTo("v");
        assertThat(asReader.has("Lock")).isFalse();
        assertThat(json.readTree(send("GET", "/v1/var/scoped", null, "write-secret").body()).has("Lock")).isTrue();
        assertThat(json.readTree(send("GET", "/v1/vars?prefix=scoped", null, "read-secret").body()).get(0).has("Lock")).isFalse();
        assertThat(send("DELETE", "/v1/var/scoped", null, "read-secret").statusCode()).isEqualTo(403);
    }
}
