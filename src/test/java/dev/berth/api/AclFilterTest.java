package dev.berth.api;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.berth.config.AclPolicy;
import dev.berth.config.BerthProperties.Acl;
import dev.berth.config.BerthProperties.Token;
import dev.berth.config.BerthProperties.TokenScope;

import static org.assertj.core.api.Assertions.assertThat;

/** The ACL filter in front of real MVC handlers: scopes, token headers and the 403 problem bodies. */
@WebMvcTest(controllers = AclFilterTest.Endpoints.class)
@Import({AclFilterConfiguration.class, AclFilterTest.Endpoints.class, AclFilterTest.Policy.class})
class AclFilterTest {

    @RestController
    static class Endpoints {
        @GetMapping("/v1/client/allocations")
        String list() {
            return "[]";
        }

        @PutMapping("/v1/client/allocation/{id}")
        String put() {
            return "{}";
        }

        @GetMapping("/v1/metrics")
        String metrics() {
            return "metrics";
        }

        @GetMapping("/actuator/health/liveness")
        String liveness() {
            return "UP";
        }
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Policy {
        @Bean
        AclPolicy aclPolicy() {
            return AclPolicy.of(new Acl(true, List.of(new Token("ro", "read-secret", TokenScope.READ),
                    new Token("rw", "write-secret", TokenScope.WRITE)), true), "0.0.0.0");
        }
    }

    @Autowired
    MockMvcTester mvc;

    @Test
    void noTokenIsPermissionDenied() {
        assertThat(mvc.get().uri("/v1/client/allocations"))
                .hasStatus(HttpStatus.FORBIDDEN)
                .hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyJson().extractingPath("$.detail").isEqualTo("Permission denied");
    }

    @Test
    void readTokenCanReadButNotWrite() {
        assertThat(mvc.get().uri("/v1/client/allocations").header("X-Nomad-Token", "read-secret"))
                .hasStatusOk();
        assertThat(mvc.put().uri("/v1/client/allocation/a1").header("X-Nomad-Token", "read-secret"))
                .hasStatus(HttpStatus.FORBIDDEN)
                .bodyJson().extractingPath("$.detail").isEqualTo("Permission denied");
    }

    @Test
    void unknownTokenIsAclTokenNotFound() {
        assertThat(mvc.get().uri("/v1/client/allocations").header("X-Nomad-Token", "guess"))
                .hasStatus(HttpStatus.FORBIDDEN)
                .bodyJson().satisfies(json -> {
                    assertThat(json).extractingPath("$.detail").isEqualTo("ACL token not found");
                    assertThat(json).extractingPath("$.status").isEqualTo(403);
                    assertThat(json).extractingPath("$.title").isEqualTo("Forbidden");
                    assertThat(json).extractingPath("$.instance").isEqualTo("/v1/client/allocations");
                });
    }

    @Test
    void writeTokenCanWrite() {
        assertThat(mvc.put().uri("/v1/client/allocation/a1").header("X-Nomad-Token", "write-secret"))
                .hasStatusOk();
    }

    @Test
    void bearerFormIsAccepted() {
        assertThat(mvc.put().uri("/v1/client/allocation/a1").header("Authorization", "Bearer write-secret"))
                .hasStatusOk();
        assertThat(mvc.put().uri("/v1/client/allocation/a1").header("Authorization", "bearer read-secret"))
                .hasStatus(HttpStatus.FORBIDDEN);
        assertThat(mvc.get().uri("/v1/client/allocations").header("Authorization", "Basic d3JpdGUtc2VjcmV0"))
                .hasStatus(HttpStatus.FORBIDDEN)
                .bodyJson().extractingPath("$.detail").isEqualTo("Permission denied");
    }

    @Test
    void metricsAndHealthAreAnonymousButNotForWrites() {
        assertThat(mvc.get().uri("/v1/metrics")).hasStatusOk();
        assertThat(mvc.get().uri("/actuator/health/liveness")).hasStatusOk();
        assertThat(mvc.post().uri("/v1/metrics")).hasStatus(HttpStatus.FORBIDDEN);
    }

    @Test
    void requiredScopeByMethodAndPath() {
        assertThat(AclFilter.requiredScope("GET", "/v1/client/stats", true)).isEqualTo(TokenScope.READ);
        assertThat(AclFilter.requiredScope("DELETE", "/v1/client/allocation/x", true)).isEqualTo(TokenScope.WRITE);
        // garbage collection destroys data: write scope with any method (Nomad accepts GET for it)
        assertThat(AclFilter.requiredScope("GET", "/v1/client/allocation/x/gc", true)).isEqualTo(TokenScope.WRITE);
        assertThat(AclFilter.requiredScope("GET", "/v1/client/gc", true)).isEqualTo(TokenScope.WRITE);
        // the exec websocket checks write scope itself, after the upgrade (its token may come in the first frame)
        assertThat(AclFilter.requiredScope("GET", "/v1/client/allocation/x/exec", false)).isNull();
        assertThat(AclFilter.requiredScope("GET", "/v1/client/allocation/x/y/exec", false)).isEqualTo(TokenScope.READ);
        assertThat(AclFilter.requiredScope("GET", "/v1/client/allocation/exec", false)).isEqualTo(TokenScope.READ);
        assertThat(AclFilter.requiredScope("GET", "/v1/client/allocation/x/stats", true)).isEqualTo(TokenScope.READ);
        assertThat(AclFilter.requiredScope("POST", "/v1/client/allocation/x/signal", true)).isEqualTo(TokenScope.WRITE);
        assertThat(AclFilter.requiredScope("GET", "/actuator/prometheus", true)).isNull();
        assertThat(AclFilter.requiredScope("GET", "/v1/agent/health", true)).isNull();
        assertThat(AclFilter.requiredScope("GET", "/v1/agent/health", false)).isEqualTo(TokenScope.READ);
        assertThat(AclFilter.requiredScope("GET", "/v1/agent/self", true)).isEqualTo(TokenScope.READ);
        assertThat(AclFilter.requiredScope("GET", "/actuator/health", true)).isNull();
        assertThat(AclFilter.requiredScope("GET", "/actuator/prometheus", false)).isEqualTo(TokenScope.READ);
        assertThat(AclFilter.requiredScope("GET", "/actuator/healthz", true)).isEqualTo(TokenScope.READ);
        assertThat(AclFilter.requiredScope("GET", "/v3/api-docs", true)).isEqualTo(TokenScope.READ);
        assertThat(AclFilter.requiredScope("GET", "/swagger-ui.html", true)).isEqualTo(TokenScope.READ);
        assertThat(AclFilter.requiredScope("GET", "/actuator/env", true)).isEqualTo(TokenScope.READ);
    }

    @Test
    void uiAssetsLoadWithoutTokenButItsApiCallsDoNot() {
        assertThat(AclFilter.requiredScope("GET", "/ui/", false)).isNull();
        assertThat(AclFilter.requiredScope("GET", "/ui", false)).isNull();
        assertThat(AclFilter.requiredScope("GET", "/ui/app.js", false)).isNull();
        assertThat(AclFilter.requiredScope("GET", "/uix/secret", false)).isEqualTo(TokenScope.READ);
        assertThat(AclFilter.requiredScope("POST", "/ui/", false)).isEqualTo(TokenScope.WRITE);
        assertThat(AclFilter.requiredScope("GET", "/v1/client/allocations", false)).isEqualTo(TokenScope.READ);
    }
}
