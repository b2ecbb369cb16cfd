package dev.berth.alloc.gc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code berth.gc.*} value that the record's checks refuse is reported like every other invalid value: the key as
 * the operator wrote it, the value, where it came from and the rule it broke.
 */
@ExtendWith(OutputCaptureExtension.class)
class GcPropertiesStartupTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(GcProperties.class)
    static class GcConfig {
    }

    private static void start(String... args) {
        assertThatThrownBy(() -> new SpringApplicationBuilder(GcConfig.class).web(WebApplicationType.NONE).logStartupInfo(false)
                .run(args).close())
                .isInstanceOf(Exception.class);
    }

    @Test
    void anOutOfRangeValueNamesTheKeyItsValueAndItsOrigin(CapturedOutput output) {
        start("--berth.gc.max-allocs=-1");

        assertThat(output).contains("Invalid Berth configuration:")
                // the origin's own quotes are escaped when another test left structured (JSON) console logging on
                .contains("'berth.gc.max-allocs' = '-1' (from ").contains("commandLineArgs")
                .contains("): must be at least 1, was -1")
                .doesNotContain("maxAllocs");
    }

    @Test
    void aThresholdOverAHundredNamesTheKey(CapturedOutput output) {
        start("--berth.gc.disk-usage-threshold=150");

        assertThat(output).contains("'berth.gc.disk-usage-threshold' = '150' (from ")
                .contains("): must be between 0 and 100, was 150");
    }
}
