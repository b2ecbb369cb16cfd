package dev.berth.driver;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.berth.driver.ConfigSchema.Type;
import dev.berth.host.Signals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ConfigHelpersTest {

    @Test
    void signalTableKnowsLinuxNamesWithOrWithoutPrefix() throws DriverException {
        assertThat(DriverSignals.parse("SIGTERM")).isEqualTo(15);
        assertThat(DriverSignals.parse("TERM")).isEqualTo(15);
        assertThat(DriverSignals.parse("sigusr2")).isEqualTo(12);
        assertThat(DriverSignals.parse("SIGIOT")).isEqualTo(6);
        assertThat(Signals.name(6)).isEqualTo("SIGABRT");
        assertThat(Signals.name(64)).isEqualTo("SIG64");
        assertThat(Signals.all()).hasSize(35).containsEntry("SIGSYS", 31).containsEntry("SIGWINCH", 28);
        assertThatExceptionOfType(DriverException.class).isThrownBy(() -> DriverSignals.parse("SIGFOO"))
                .withMessage("unknown signal \"SIGFOO\"");
        assertThatExceptionOfType(DriverException.class).isThrownBy(() -> DriverSignals.parse(""));
    }

    private final ConfigSchema schema = ConfigSchema.builder()
            .required("command", Type.STRING)
            .optional("args", Type.STRING_LIST)
            .optional("count", Type.NUMBER)
            .optional("flag", Type.BOOL)
            .optional("wait", Type.DURATION)
            .build();

    @Test
    void schemaConvertsLikeHcl() throws TaskConfigValidationException {
        ConfigSchema.Validated v = schema.validate(Map.of("command", 5, "args", List.of("a", 1, true), "count", "12",
                "flag", "true", "wait", "2s"));
        assertThat(v.string("command", null)).isEqualTo("5");
        assertThat(v.stringList("args")).containsExactly("a", "1", "true");
        assertThat(v.number("count", 0)).isEqualTo(12);
        assertThat(v.bool("flag", false)).isTrue();
        assertThat(v.duration("wait")).isEqualTo(Duration.ofSeconds(2));
        assertThat(schema.validate(Map.of("command", "x", "count", 3.0)).number("count", 0)).isEqualTo(3);
    }

    /** The driver-config rule on top of {@link GoDuration} (whose own table is {@code GoDurationTest}). */
    @Test
    void anEmptyDurationIsZeroAndABadOneNamesTheKey() throws TaskConfigValidationException {
        assertThat(schema.validate(Map.of("command", "x", "wait", "")).duration("wait")).isEqualTo(Duration.ZERO);
        assertThatExceptionOfType(TaskConfigValidationException.class)
                .isThrownBy(() -> schema.validate(Map.of("command", "x", "wait", "10")))
                .withMessage("Invalid value for attribute \"wait\": time: missing unit in duration \"10\"");
    }

    @Test
    void schemaErrorsNameTheKey() {
        assertThatExceptionOfType(TaskConfigValidationException.class).isThrownBy(() -> schema.validate(Map.of()))
                .withMessage("Missing required argument; The argument \"command\" is required, but no definition was found.")
                .satisfies(ex -> assertThat(ex.field()).isEqualTo("command"));
        assertThatExceptionOfType(TaskConfigValidationException.class)
                .isThrownBy(() -> schema.validate(Map.of("command", "x", "zzz", 1, "aaa", 2)))
                .withMessage("Extraneous JSON object property; No argument or block type is named \"aaa\".");
        assertThatExceptionOfType(TaskConfigValidationException.class)
                .isThrownBy(() -> schema.validate(Map.of("command", List.of("x"))))
                .withMessage("Incorrect attribute value type; Inappropriate value for attribute \"command\": a string is required.");
        assertThatExceptionOfType(TaskConfigValidationException.class)
                .isThrownBy(() -> schema.validate(Map.of("command", "x", "args", "not a list")))
                .withMessageContaining("\"args\": a list of string is required");
        assertThatExceptionOfType(TaskConfigValidationException.class)
                .isThrownBy(() -> schema.validate(Map.of("command", "x", "count", 1.5)))
                .withMessageContaining("\"count\": a number is required");
    }
}
