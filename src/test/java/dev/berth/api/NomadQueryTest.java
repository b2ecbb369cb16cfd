package dev.berth.api;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Nomad's query parameters, headers, error negotiation and the whole-allocation merge. */
class NomadQueryTest {

    /** Any Go duration ({@code GoDuration}, tested there) but a negative one; absent is null (the default wait). */
    @ParameterizedTest(name = "wait={0}")
    @CsvSource({"5s, 5000", "1m30s, 90000", "250ms, 250", "1.5h, 5400000", "0, 0"})
    void waitIsAGoDuration(String wait, long millis) {
        MockHttpServletRequest r = new MockHttpServletRequest();
        r.setParameter("wait", wait);
        assertThat(NomadQuery.waitParam(r)).isEqualTo(Duration.ofMillis(millis));
        assertThat(NomadQuery.waitParam(new MockHttpServletRequest())).isNull();
    }

    @ParameterizedTest(name = "wait={0}")
    @ValueSource(strings = {"forever", "10", "5x", "-1s", "1m30"})
    void aWaitThatIsNotAGoDurationOrIsNegativeIsNomads400(String wait) {
        MockHttpServletRequest r = new MockHttpServletRequest();
        r.setParameter("wait", wait);
        assertThatThrownBy(() -> NomadQuery.waitParam(r)).isInstanceOfSatisfying(ApiException.BadRequest.class,
                e -> assertThat(e.detail()).isEqualTo("Invalid wait time"));
    }

    @Test
    void badIndexAndWaitAreNomads400() {
        MockHttpServletRequest r = new MockHttpServletRequest();
        r.setParameter("index", "abc");
        assertThatThrownBy(() -> NomadQuery.index(r)).isInstanceOf(ApiException.BadRequest.class);
        r.setParameter("index", "12");
        r.setParameter("wait", "forever");
        assertThat(NomadQuery.index(r)).isEqualTo(12);
        assertThatThrownBy(() -> NomadQuery.waitParam(r)).hasMessageContaining("Invalid wait time");
    }

    @Test
    void headersNeverSayIndexZero() {
        var h = NomadQuery.headers(0);
        assertThat(h.getFirst("X-Nomad-Index")).isEqualTo("1");
        assertThat(h.getFirst("X-Nomad-KnownLeader")).isEqualTo("true");
        assertThat(h.getFirst("X-Nomad-LastContact")).isEqualTo("0");
    }

    @Test
    void nomadClientsAndPlainTextAcceptorsGetErrorText() {
        assertThat(NomadErrorText.wantsNomadText(request(null, "Apache-HttpClient/4.5.13 (Java/21)"))).isTrue();
        assertThat(NomadErrorText.wantsNomadText(request(null, "Go-http-client/1.1"))).isTrue();
        assertThat(NomadErrorText.wantsNomadText(request("text/plain", "curl/8"))).isTrue();
        assertThat(NomadErrorText.wantsNomadText(request(null, "Java-http-client/21"))).isFalse();
        assertThat(NomadErrorText.wantsNomadText(request("application/problem+json", "Go-http-client/1.1"))).isFalse();
        assertThat(NomadErrorText.wantsNomadText(request("application/json, text/plain", "x"))).isFalse();
    }

    @Test
    void mergeKeepsSubmittedFieldsOverTheCanonicalOnes() {
        Map<String, Object> base = new LinkedHashMap<>(Map.of("Job", Map.of("Priority", 50, "TaskGroups",
                List.of(Map.of("Name", "g", "Tasks", List.of(Map.of("Name", "t", "KillTimeout", 5)))))));
        Map<String, Object> top = Map.of("Job", Map.of("Priority", 70, "Future", true, "TaskGroups",
                List.of(Map.of("Tasks", List.of(Map.of("Name", "t", "X", 1))))), "EvalID", "e1");
        AllocationJson.merge(base, top);
        @SuppressWarnings("unchecked")
        Map<String, Object> job = (Map<String, Object>) base.get("Job");
        assertThat(job).containsEntry("Priority", 70).containsEntry("Future", true);
        assertThat(base).containsEntry("EvalID", "e1");
        assertThat(job.get("TaskGroups").toString()).contains("KillTimeout=5", "X=1", "Name=g");
    }

    private static MockHttpServletRequest request(String accept, String agent) {
        MockHttpServletRequest r = new MockHttpServletRequest();
        if (accept != null) {
            r.addHeader("Accept", accept);
        }
        r.addHeader("User-Agent", agent);
        return r;
    }
}
