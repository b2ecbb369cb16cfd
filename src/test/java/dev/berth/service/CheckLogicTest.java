package dev.berth.service;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Thresholds ({@code SuccessBeforePassing}, {@code FailuresBeforeCritical}, {@code InitialStatus}) and check_restart timing. */
class CheckLogicTest {

    static final Instant T0 = Instant.parse("2026-11-26T00:00:00Z");

    @Test
    void initialStatusMapsToNomadsStatuses() {
        assertThat(new CheckStatus("", 0, 0).status()).isEqualTo("pending");
        assertThat(new CheckStatus("passing", 0, 0).status()).isEqualTo("success");
        assertThat(new CheckStatus("warning", 0, 0).status()).isEqualTo("failure");
        assertThat(new CheckStatus("critical", 0, 0).status()).isEqualTo("failure");
    }

    @Test
    void withoutThresholdsEveryResultCountsAtOnce() {
        CheckStatus s = new CheckStatus("", 0, 0);
        assertThat(s.record(false)).isEqualTo("failure");
        assertThat(s.record(true)).isEqualTo("success");
        assertThat(s.record(false)).isEqualTo("failure");
    }

    @Test
    void thresholdsNeedConsecutiveResults() {
        CheckStatus s = new CheckStatus("critical", 3, 2);
        assertThat(s.record(true)).isEqualTo("failure");
        assertThat(s.record(true)).isEqualTo("failure");
        assertThat(s.record(false)).isEqualTo("failure");
        assertThat(s.record(true)).isEqualTo("failure");
        assertThat(s.record(true)).isEqualTo("failure");
        assertThat(s.record(true)).isEqualTo("success");
        assertThat(s.record(false)).isEqualTo("success");
        assertThat(s.record(true)).isEqualTo("success");
        assertThat(s.record(false)).isEqualTo("success");
        assertThat(s.record(false)).isEqualTo("failure");
    }

    @Test
    void limitOneRestartsAtTheFirstUnhealthyResultAfterGrace() {
        CheckRestarter r = new CheckRestarter(Duration.ofSeconds(10), Duration.ofSeconds(1), 1, T0);
        assertThat(r.apply(T0.plusSeconds(5), "failure")).isFalse();
        assertThat(r.apply(T0.plusSeconds(9), "pending")).isFalse();
        assertThat(r.apply(T0.plusSeconds(10), "failure")).isTrue();
        // a new grace period after the restart
        assertThat(r.apply(T0.plusSeconds(11), "failure")).isFalse();
        assertThat(r.apply(T0.plusSeconds(20), "failure")).isTrue();
    }

    @Test
    void limitCountsUnhealthyTimeAndAHealthyResultResetsIt() {
        CheckRestarter r = new CheckRestarter(Duration.ZERO, Duration.ofSeconds(2), 3, T0);
        assertThat(r.apply(T0.plusSeconds(1), "failure")).isFalse();
        assertThat(r.apply(T0.plusSeconds(3), "failure")).isFalse();
        assertThat(r.apply(T0.plusSeconds(4), "success")).isFalse();
        assertThat(r.apply(T0.plusSeconds(5), "failure")).isFalse();
        assertThat(r.apply(T0.plusSeconds(7), "failure")).isFalse();
        // unhealthy since t=5 for interval × (limit − 1) = 4 s
        assertThat(r.apply(T0.plusSeconds(9), "failure")).isTrue();
    }
}
