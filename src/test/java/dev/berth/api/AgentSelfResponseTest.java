package dev.berth.api;

import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class AgentSelfResponseTest {

    @ParameterizedTest
    @CsvSource({"0, 0s", "500, 500ms", "1000, 1s", "1500, 1.5s", "30000, 30s", "90000, 1m30s", "7200000, 2h0m0s",
            "3723250, 1h2m3.25s"})
    void durationsAreWrittenLikeGo(long millis, String expected) {
        assertThat(AgentSelfResponse.goDuration(Duration.ofMillis(millis))).isEqualTo(expected);
    }
}
