package dev.berth.alloc.gc;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each {@code berth.gc.*} rule, bound through the record's constructor as at start-up; the defaults pass. */
class GcPropertiesChecksTest {

    private static GcProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate("berth.gc", GcProperties.class);
    }

    @Test
    void theDefaultsPass() {
        assertThat(bind(Map.of())).isEqualTo(new GcProperties(50, 80, 70, Duration.ofMinutes(1), 2));
    }

    @Test
    void theBoundsThemselvesPass() {
        assertThat(bind(Map.of("berth.gc.max-allocs", "1", "berth.gc.disk-usage-threshold", "0",
                "berth.gc.inode-usage-threshold", "100", "berth.gc.parallel-destroys", "1", "berth.gc.interval", "1ms")))
                .isEqualTo(new GcProperties(1, 0, 100, Duration.ofMillis(1), 1));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "max-allocs            | 0    | 'berth.gc.max-allocs' must be at least 1, was 0",
        "max-allocs            | -1   | 'berth.gc.max-allocs' must be at least 1, was -1",
        "disk-usage-threshold  | 101  | 'berth.gc.disk-usage-threshold' must be between 0 and 100, was 101",
        "disk-usage-threshold  | -0.5 | 'berth.gc.disk-usage-threshold' must be between 0 and 100, was -0.5",
        "inode-usage-threshold | 150  | 'berth.gc.inode-usage-threshold' must be between 0 and 100, was 150",
        "inode-usage-threshold | -1   | 'berth.gc.inode-usage-threshold' must be between 0 and 100, was -1",
        "interval              | 0s   | 'berth.gc.interval' must be positive, was PT0S",
        "interval              | -1m  | 'berth.gc.interval' must be positive, was PT-1M",
        "parallel-destroys     | 0    | 'berth.gc.parallel-destroys' must be at least 1, was 0",
    })
    void eachBadValueFailsTheBindNamingTheKey(String key, String value, String message) {
        assertThatThrownBy(() -> bind(Map.of("berth.gc." + key, value)))
                .isInstanceOf(BindException.class)
                .rootCause().hasMessage(message);
    }
}
