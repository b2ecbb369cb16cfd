package dev.berth.support;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The promtool tests must not pass silently in CI when promtool is missing. */
class PromtoolTest {

    @Test
    void missingPromtoolFailsUnderCi() {
        assertThatExceptionOfType(AssertionError.class)
                .isThrownBy(() -> Promtool.locate(Map.of("PATH", "/nonexistent", "CI", "true")))
                .withMessageContaining("prometheus");
    }

    @Test
    void missingPromtoolSkipsOutsideCi() {
        assertThatExceptionOfType(TestAbortedException.class)
                .isThrownBy(() -> Promtool.locate(Map.of("PATH", "/nonexistent")));
    }

    @Test
    void aBrokenExpositionIsRejected() throws Exception {
        Promtool.Result result = Promtool.checkMetrics("# TYPE x gauge\nx{ 1\n");

        assertThat(result.exitCode()).isNotZero();
    }

    @Test
    void aCleanExpositionPasses() throws Exception {
        Promtool.Result result = Promtool.checkMetrics("# HELP berth_x_bytes A thing\n# TYPE berth_x_bytes gauge\nberth_x_bytes 1.0\n");

        assertThat(result.exitCode()).as(result.output()).isZero();
    }
}
