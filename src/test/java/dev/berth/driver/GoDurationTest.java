package dev.berth.driver;

import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The agent's one Go duration parser and formatter, against what Go's {@code time} package answers. */
class GoDurationTest {

    @ParameterizedTest(name = "{0} = {1} ns")
    @CsvSource({
            "0,                     0",
            "-0,                    0",
            "+5s,                   5000000000",
            "1m30s,                 90000000000",
            "1.5h,                  5400000000000",
            "300ms,                 300000000",
            "2h45m,                 9900000000000",
            "-1.5s,                 -1500000000",
            "1us,                   1000",
            "1µs,                   1000",      // U+00B5 micro sign
            "1μs,                   1000",      // U+03BC Greek mu
            "7ns,                   7",
            ".5s,                   500000000",
            "1.s,                   1000000000",
            "1h2m3s4ms5us6ns,       3723004005006",
            "1.0000000005s,         1000000000", // below a nanosecond: truncated, as Go does
            "2562047h47m16.854775807s, 9223372036854775807",
            "-9223372036854775808ns,   -9223372036854775808"})
    void parsesLikeGo(String text, long nanos) {
        assertThat(GoDuration.parse(text)).isEqualTo(Duration.ofNanos(nanos));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
            "''             | time: invalid duration \"\"",
            "10             | time: missing unit in duration \"10\"",
            "1x             | time: unknown unit \"x\" in duration \"1x\"",
            "1m30           | time: missing unit in duration \"1m30\"",
            "s              | time: invalid duration \"s\"",
            ".s             | time: invalid duration \".s\"",
            "1..5s          | time: invalid duration \"1..5s\"",
            "-              | time: invalid duration \"-\"",
            "' 5s'          | time: invalid duration \" 5s\"",
            "1S             | time: unknown unit \"S\" in duration \"1S\"",
            "9223372036854775808ns | time: invalid duration \"9223372036854775808ns\"",
            "2562048h       | time: invalid duration \"2562048h\""})
    void refusesWhatGoRefusesWithGosMessage(String text, String message) {
        assertThatIllegalArgumentException().isThrownBy(() -> GoDuration.parse(text)).withMessage(message);
    }

    @ParameterizedTest(name = "{0} ns = {1}")
    @CsvSource({"0,0s", "7,7ns", "1500,1.5µs", "1500000,1.5ms", "15000000000,15s", "1800000000000,30m0s",
            "86400000000000,24h0m0s", "90500000000,1m30.5s", "-2000000000,-2s", "3723004000000,1h2m3.004s"})
    void formatsLikeGo(long nanos, String text) {
        assertThat(GoDuration.format(Duration.ofNanos(nanos))).isEqualTo(text);
    }
}
