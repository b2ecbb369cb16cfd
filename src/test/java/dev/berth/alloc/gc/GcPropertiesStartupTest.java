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
 * A bean-validation failure of {@code berth.gc.*} is reported like every other invalid value: the key as the operator
 * wrote it (not the Java field name {@code maxAllocs}), the value and where it came from.
 */
@ExtendWith(OutputCaptureExtension.class)
class GcPropertiesStartupTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(GcProperties.class)
    static class GcConfig {
    }

    @Test
    void anOutOfRangeValueNamesTheDashedKeyAndItsOrigin(CapturedOutput output) {
        assertThatThrownBy(() -> new SpringApplicationBuilder(GcConfig.class).web(WebApplicationType.NONE).logStartupInfo(false)
                .run("--berth.gc.max-allocs=-1", "--berth.gc.disk-usage-threshold=150").close())
                .isInstanceOf(Exception.class);

        assertThat(output).contains("Invalid Berth configuration:")
                // the origin's own quotes are escaped when another test left structured (JSON) console logging on
                .contains("'berth.gc.max-allocs' = '-1' (from ").contains("commandLineArgs")
                .contains("must be greater than or equal to 1")
                .contains("'berth.gc.disk-usage-threshold' = '150.0' (from")
                .doesNotContain("maxAllocs");
    }
}
