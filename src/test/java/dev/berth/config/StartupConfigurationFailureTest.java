package dev.berth.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Runs a real {@code SpringApplication} with Berth's configuration classes and asserts that insecure or invalid
 * settings stop start-up with one clear failure analysis. Command-line arguments are used so they override the
 * shipped application.yml files, exactly as an operator's would.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupConfigurationFailureTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(BerthProperties.class)
    @Import(AclConfiguration.class)
    static class BerthConfig {
    }

    private static Throwable start(String... args) {
        return catchThrowable(() -> {
            try (ConfigurableApplicationContext ignored = new SpringApplicationBuilder(BerthConfig.class)
                    .web(WebApplicationType.NONE).logStartupInfo(false).run(args)) {
                // started: no failure
            }
        });
    }

    private static FailureAnalysis insecure(Throwable failure) {
        return new InsecureConfigurationFailureAnalyzer().analyze(failure);
    }

    private static FailureAnalysis invalid(Throwable failure) {
        return new BerthPropertiesFailureAnalyzer().analyze(failure);
    }

    @Test
    void loopbackWithoutAclsStarts() {
        assertThat(start("--server.address=127.0.0.1", "--berth.acl.enabled=false")).isNull();
        assertThat(start("--server.address=::1", "--berth.acl.enabled=false")).isNull();
        assertThat(start("--server.address=localhost", "--berth.acl.enabled=false")).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0.0.0", "::", "10.1.2.3", ""})
    void nonLoopbackWithoutAclsIsRefused(String address) {
        Throwable failure = start("--server.address=" + address, "--berth.acl.enabled=false");

        FailureAnalysis analysis = insecure(failure);
        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).startsWith("Berth refuses to listen on server.address=")
                .contains("with ACLs disabled");
        assertThat(analysis.getAction()).contains("server.address=127.0.0.1").contains("berth.acl.enabled=true");
    }

    @Test
    void nonLoopbackWithAclsAndATokenStarts() {
        assertThat(start("--server.address=0.0.0.0", "--berth.acl.enabled=true",
                "--berth.acl.tokens[0].secret=s3cret", "--berth.acl.tokens[0].scope=write")).isNull();
    }

    @Test
    void enabledAclsWithoutTokensIsRefused() {
        FailureAnalysis analysis = insecure(start("--server.address=127.0.0.1", "--berth.acl.enabled=true"));

        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).contains("no token is configured under berth.acl.tokens");
        assertThat(analysis.getAction()).contains("BERTH_ACL_TOKENS_0_SECRET");
    }

    @Test
    void negativeIntervalIsOneClearMessage() {
        FailureAnalysis analysis = invalid(start("--berth.telemetry.collection-interval=-5s"));

        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).startsWith("Invalid Berth configuration:")
                .contains("'berth.telemetry.collection-interval' must be positive, was PT-5S");
        assertThat(analysis.getAction()).contains("docs/configuration.md");
    }

    @Test
    void unknownNamingValueListsTheAllowedValues() {
        FailureAnalysis analysis = invalid(start("--berth.metrics.naming=statsd"));

        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription())
                .contains("'berth.metrics.naming' = 'statsd'")
                .contains("must be one of: prometheus, nomad");
    }

    @Test
    void invalidPortRangeIsReported() {
        FailureAnalysis analysis = invalid(start("--berth.client.min-dynamic-port=30000",
                "--berth.client.max-dynamic-port=70000"));

        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).contains("must be 1..65535 with min <= max, was 30000..70000");
    }

    @Test
    void blankValidatedValueNamesTheKey() {
        FailureAnalysis analysis = invalid(start("--berth.datacenter= "));

        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).contains("'berth.datacenter'").contains("must not be blank");
    }

    @Test
    void blankTokenSecretNamesTheListElement() {
        FailureAnalysis analysis = invalid(start("--berth.acl.enabled=true", "--berth.acl.tokens[0].secret=",
                "--berth.acl.tokens[0].scope=write"));

        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).contains("'berth.acl.tokens[0].secret'").contains("must not be blank");
    }

    @Test
    void unknownScopeListsTheAllowedValues() {
        FailureAnalysis analysis = invalid(start("--berth.acl.enabled=true", "--berth.acl.tokens[0].secret=x",
                "--berth.acl.tokens[0].scope=admin"));

        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).contains("'admin'").contains("must be one of: read, write");
    }

    @Test
    void unparsableDurationNamesKeyAndValue() {
        FailureAnalysis analysis = invalid(start("--berth.client.max-kill-timeout=soon"));

        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).contains("'berth.client.max-kill-timeout' = 'soon'")
                .contains("cannot be converted to Duration");
    }

    @org.springframework.boot.context.properties.ConfigurationProperties("other")
    record OtherProperties(int number) {
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(OtherProperties.class)
    static class OtherConfig {
    }

    @Test
    void failuresOfOtherPrefixesAreLeftToBoot() {
        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(OtherConfig.class)
                .web(WebApplicationType.NONE).logStartupInfo(false).run("--other.number=many").close());

        assertThat(failure).isNotNull();
        assertThat(invalid(failure)).isNull();
    }

    @Test
    void bootPrintsTheAnalysisAtStartup(CapturedOutput output) {
        assertThatThrownBy(() -> new SpringApplicationBuilder(BerthConfig.class).web(WebApplicationType.NONE)
                .run("--server.address=0.0.0.0", "--berth.acl.enabled=false"))
                .isInstanceOf(Exception.class);

        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("Berth refuses to listen on server.address=0.0.0.0")
                .contains("Action:");
    }

    @Test
    void aMisspelledBerthKeyStopsStartUpNamingTheKey() {
        Throwable failure = start("--server.address=127.0.0.1", "--berth.drivers.raw-exec.enabeld=true", "--berth.gc.max-allocs=5",
                "--berth.meta.rack=r1", "--berth.acl.tokens[0].secret=s", "--berth.acl.tokens[0].scope=write");
        assertThat(failure).as("start-up must fail").isNotNull();
        FailureAnalysis analysis = new InvalidConfigurationFailureAnalyzer().analyze(failure);
        assertThat(analysis).as(String.valueOf(failure)).isNotNull();
        assertThat(analysis.getDescription()).contains("Unknown Berth configuration key")
                .contains("berth.drivers.raw-exec.enabeld (from commandLineArgs)")
                .doesNotContain("berth.gc.max-allocs").doesNotContain("berth.meta").doesNotContain("berth.acl.tokens");
        assertThat(analysis.getAction()).contains("docs/configuration.md");
    }

    @Test
    void everyDocumentedKeyKindIsAccepted() {
        assertThat(start("--server.address=127.0.0.1", "--berth.meta.rack=r1", "--berth.meta.zone=z", "--berth.gc.interval=2m",
                "--berth.devices.stats-interval=10s", "--berth.drivers.exec.pids-limit=100", "--berth.drivers.exec.swap=limited", "--berth.fingerprint.driver-timeout=3s",
                "--berth.devices.nvidia.ignored-gpu-ids[0]=GPU-1", "--berth.drivers.docker.host=unix:///var/run/docker.sock",
                "--berth.devices.on-unhealthy=restart", "--berth.devices.health-hold-down=1m", "--berth.devices.nvidia.pmon=true",
                "--berth.devices.nvidia.process-stats=false", "--berth.devices.nvidia.job-mapping-dir=/run/dcgm-job-map",
                "--berth.devices.nvidia.job-mapping-format=job-alloc-task"))
                .isNull();
    }

}
