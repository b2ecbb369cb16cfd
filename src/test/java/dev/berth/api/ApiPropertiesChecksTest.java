package dev.berth.api;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@code berth.api.*} rule, bound through the record's constructor as at start-up; the default passes. */
class ApiPropertiesChecksTest {

    private static ApiProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate("berth.api", ApiProperties.class);
    }

    @Test
    void theDefaultPasses() {
        assertThat(bind(Map.of()).maxRequestBodySize()).isEqualTo(DataSize.ofMegabytes(10));
        assertThat(bind(Map.of("berth.api.max-request-body-size", "1B")).maxRequestBodySize()).isEqualTo(DataSize.ofBytes(1));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "0    | 'berth.api.max-request-body-size' must be positive, was 0B",
        "-1KB | 'berth.api.max-request-body-size' must be positive, was -1024B",
    })
    void aNonPositiveSizeFailsTheBindNamingTheKey(String value, String message) {
        assertThatThrownBy(() -> bind(Map.of("berth.api.max-request-body-size", value)))
                .isInstanceOf(BindException.class)
                .rootCause().hasMessage(message);
    }
}
