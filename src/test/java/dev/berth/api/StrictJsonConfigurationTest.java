package dev.berth.api;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageNotReadableException;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.device.DeviceRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The strict scalar binding against what Go's {@code encoding/json} accepts and refuses, and the problem texts
 * {@link BodyProblems} makes of the failures.
 */
class StrictJsonConfigurationTest {

    record Sample(@JsonProperty("S") String s, @JsonProperty("I") Integer i, @JsonProperty("L") Long l, @JsonProperty("P") int p,
            @JsonProperty("B") Boolean b, @JsonProperty("D") Double d, @JsonProperty("MS") Map<String, String> ms,
            @JsonProperty("LS") List<String> ls, @JsonProperty("O") Map<String, Object> o) {
    }

    final JsonMapper strict = strict();


    static JsonMapper strict() {
        JsonMapper.Builder builder = JsonMapper.builder();
        StrictJsonConfiguration.strictScalars(builder);
        return builder.build();
    }

    /** Go refuses every one of these with "cannot unmarshal"; Jackson's defaults accepted them all. */
    @ParameterizedTest
    @ValueSource(strings = {"{\"S\":5}", "{\"S\":5.5}", "{\"S\":true}", "{\"I\":\"5\"}", "{\"I\":5.5}", "{\"I\":5.0}", "{\"I\":1e3}",
            "{\"I\":\"\"}", "{\"I\":\" \"}", "{\"L\":\"7\"}", "{\"L\":7.9}", "{\"P\":\"3\"}", "{\"P\":2.5}", "{\"B\":1}", "{\"B\":0}",
            "{\"B\":\"true\"}", "{\"B\":\"\"}", "{\"D\":\"1.5\"}", "{\"MS\":{\"A\":5}}", "{\"MS\":{\"A\":true}}", "{\"LS\":[5]}"})
    void refusesWhatGoRefuses(String body) {
        // Jackson's defaults, except that an absent primitive (P here) is not what this test is about
        JsonMapper lenient = JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build();
        assertThat(lenient.readValue(body, Sample.class)).as("Jackson's default coerces it").isNotNull();
        assertThatThrownBy(() -> strict.readValue(body, Sample.class)).isInstanceOf(JacksonException.class);
    }

    /** Go accepts these; so do we. */
    @ParameterizedTest
    @ValueSource(strings = {"{\"S\":\"5\"}", "{\"S\":\"\"}", "{\"I\":5}", "{\"I\":-0}", "{\"L\":9007199254740993}", "{\"B\":false}",
            "{\"D\":2}", "{\"D\":2.5}", "{\"S\":null,\"I\":null,\"B\":null,\"MS\":null}", "{\"MS\":{\"A\":\"5\"}}",
            "{\"O\":{\"a\":5,\"b\":\"x\",\"c\":[1.5,true,null]}}", "{}"})
    void acceptsWhatGoAccepts(String body) {
        assertThat(strict.readValue(body, Sample.class)).isNotNull();
    }

    @Test
    void aMissingOrNullPrimitiveIsZeroAsInGo() {
        assertThat(strict.readValue("{}", Sample.class).p()).isZero();
        assertThat(strict.readValue("{\"P\":null}", Sample.class).p()).isZero();
    }

    @Test
    void writingIsUnchanged() {
        Sample sample = new Sample("s", 1, 2L, 3, true, 1.5, Map.of("k", "v"), List.of("a"), Map.of("n", 1));
        assertThat(strict.writeValueAsString(sample)).isEqualTo(JsonMapper.builder().build().writeValueAsString(sample));
    }

    private ProblemDetail problemFor(Class<?> type, String body) {
        JacksonException failure = catchThrowableOfType(JacksonException.class, () -> strict.readValue(body, type));
        assertThat(failure).as("decoding %s must fail", body).isNotNull();
        HttpInputMessage input = new HttpInputMessage() {
            @Override
            public java.io.InputStream getBody() {
                return java.io.InputStream.nullInputStream();
            }

            @Override
            public HttpHeaders getHeaders() {
                return new HttpHeaders();
            }
        };
        return BodyProblems.unreadable(new HttpMessageNotReadableException("JSON parse error", failure, input));
    }

    @Test
    void theProblemNamesTheJsonKindTheFieldAndTheExpectedType() {
        ProblemDetail p = problemFor(AllocationSpec.class, "{\"Job\":{\"TaskGroups\":[{\"Tasks\":[{\"Env\":{\"A\":5}}]}]}}");
        assertThat(p.getStatus()).isEqualTo(400);
        assertThat(p.getDetail()).isEqualTo(
                "Failed to decode body: json: cannot unmarshal number into field Job.TaskGroups[0].Tasks[0].Env.A of type string");
        assertThat(p.getProperties()).containsEntry("field", "Job.TaskGroups[0].Tasks[0].Env.A");

        assertThat(problemFor(Sample.class, "{\"I\":true}").getDetail())
                .isEqualTo("Failed to decode body: json: cannot unmarshal bool into field I of type int");
        assertThat(problemFor(Sample.class, "{\"S\":[\"a\"]}").getDetail())
                .isEqualTo("Failed to decode body: json: cannot unmarshal array into field S of type string");
        assertThat(problemFor(Sample.class, "{\"LS\":\"a\"}").getDetail())
                .isEqualTo("Failed to decode body: json: cannot unmarshal string into field LS of type array");
        assertThat(problemFor(Sample.class, "{\"I\":99999999999}").getDetail())
                .isEqualTo("Failed to decode body: json: cannot unmarshal number into field I of type int: out of range");
        assertThat(problemFor(Sample.class, "{\"I\":\"many\"}").getDetail())
                .isEqualTo("Failed to decode body: json: cannot unmarshal string into field I of type int");
        assertThat(problemFor(Sample.class, "{\"S\":").getDetail()).startsWith("Failed to decode body: ")
                .doesNotContain("Source").doesNotContain("java.");
    }

    @Test
    void aRecordsOwnCheckKeepsItsWords() {
        ProblemDetail p = problemFor(DeviceRequest.class, "{\"Count\":1}");
        assertThat(p.getDetail()).isEqualTo("Failed to decode body: device name must be specified");
    }

    @Test
    void theSizeLimitAnywhereInTheCausesIs413() {
        HttpMessageNotReadableException ex = new HttpMessageNotReadableException("I/O error",
                new IllegalStateException("wrapped", new RequestBodyTooLargeException(2048)), null);
        ProblemDetail p = BodyProblems.unreadable(ex);
        assertThat(p.getStatus()).isEqualTo(413);
        assertThat(p.getDetail()).isEqualTo("Request body too large: the limit is 2048 bytes (berth.api.max-request-body-size)");
        assertThat(p.getProperties()).containsEntry("limit", 2048L);
    }
}
