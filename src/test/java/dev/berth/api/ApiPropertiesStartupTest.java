package dev.berth.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code berth.api.max-request-body-size} is a known key (the unknown-key check accepts it), binds data sizes, and a
 * non-positive or unparsable value stops start-up with Berth's one-line report naming the key.
 */
@ExtendWith(OutputCaptureExtension.class)
class ApiPropertiesStartupTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(ApiProperties.class)
    static class ApiConfig {
    }

    private static SpringApplicationBuilder app() {
        return new SpringApplicationBuilder(ApiConfig.class).web(WebApplicationType.NONE).logStartupInfo(false);
    }

    @Test
    void defaultsToTenMegabytesAndBindsDataSizes() {
        try (ConfigurableApplicationContext context = app().run("--server.address=127.0.0.1")) {
            assertThat(context.getBean(ApiProperties.class).maxRequestBodySize().toBytes()).isEqualTo(10L * 1024 * 1024);
        }
        try (ConfigurableApplicationContext context = app().run("--server.address=127.0.0.1", "--berth.api.max-request-body-size=512KB")) {
            assertThat(context.getBean(ApiProperties.class).maxRequestBodySize().toBytes()).isEqualTo(512L * 1024);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "0MB", "-1KB"})
    void aNonPositiveSizeStopsStartUp(String value, CapturedOutput output) {
        assertThatThrownBy(() -> app().run("--berth.api.max-request-body-size=" + value).close()).isInstanceOf(Exception.class);

        assertThat(output).contains("Invalid Berth configuration:")
                .contains("'berth.api.max-request-body-size' = '" + value + "' (from ").contains("): must be positive, was ");
    }

    @Test
    void anUnparsableSizeNamesKeyAndValue(CapturedOutput output) {
        assertThatThrownBy(() -> app().run("--berth.api.max-request-body-size=lots").close()).isInstanceOf(Exception.class);

        assertThat(output).contains("Invalid Berth configuration:").contains("'berth.api.max-request-body-size' = 'lots'")
                .contains("cannot be converted to DataSize");
    }

    @Test
    void aMisspelledKeyIsStillRefused(CapturedOutput output) {
        assertThatThrownBy(() -> app().run("--berth.api.max-request-body=1MB").close()).isInstanceOf(Exception.class);

        assertThat(output).contains("Unknown Berth configuration key").contains("berth.api.max-request-body (from commandLineArgs)");
    }
}
