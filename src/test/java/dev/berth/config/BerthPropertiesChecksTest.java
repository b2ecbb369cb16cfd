package dev.berth.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import dev.berth.config.BerthProperties.TokenScope;
import dev.berth.config.PropertyChecks.InvalidPropertyException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The rules {@link BerthProperties} checks by hand, bound the way Spring Boot binds it at start-up (through the records'
 * constructors): each bad value fails the bind with a message naming the key; the defaults pass.
 */
class BerthPropertiesChecksTest {

    static BerthProperties bind(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new Binder(new MapConfigurationPropertySource(map)).bindOrCreate("berth", BerthProperties.class);
    }

    @Test
    void theDefaultsPass() {
        BerthProperties properties = bind();

        assertThat(properties.dataDir().normalize()).isEqualTo(Path.of("data"));
        assertThat(properties.datacenter()).isEqualTo("dc1");
        assertThat(properties.telemetry().collectionInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(properties.metrics().naming()).isEqualTo(MetricsNaming.PROMETHEUS);
        assertThat(properties.drivers().docker().pull()).isEqualTo("missing");
        assertThat(properties.client().maxKillTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(properties.acl().tokens()).isEmpty();
    }

    @Test
    void validTokensPass() {
        BerthProperties properties = bind("berth.acl.tokens[0].secret", "s1", "berth.acl.tokens[1].secret", "s2",
                "berth.acl.tokens[1].scope", "write");

        assertThat(properties.acl().tokens()).extracting(BerthProperties.Token::scope)
                .containsExactly(TokenScope.READ, TokenScope.WRITE);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "berth.datacenter | \" \"   | 'berth.datacenter' must not be blank",
        "berth.datacenter | \"\"    | 'berth.datacenter' must not be blank",
        "berth.telemetry.collection-interval | 0s  | 'berth.telemetry.collection-interval' must be positive, was PT0S",
        "berth.telemetry.collection-interval | -5s | 'berth.telemetry.collection-interval' must be positive, was PT-5S",
        "berth.drivers.docker.pull | \" \" | 'berth.drivers.docker.pull' must not be blank",
        "berth.acl.tokens[0].secret | \" \" | 'berth.acl.tokens[0].secret' must not be blank",
        "berth.acl.tokens[0].scope | write | 'berth.acl.tokens[0].secret' must not be blank",
        "berth.client.min-dynamic-port | 0 | 'berth.client.min-dynamic-port'/'max-dynamic-port' must be 1..65535 with min <= max, was 0..32000",
    })
    void eachBadValueFailsTheBindNamingTheKey(String key, String value, String message) {
        assertThatThrownBy(() -> bind(key, value))
                .isInstanceOf(BindException.class)
                .rootCause().hasMessage(message);
    }

    @Test
    void aBadTokenFurtherDownTheListIsNamedByItsIndex() {
        assertThatThrownBy(() -> bind("berth.acl.tokens[0].secret", "ok", "berth.acl.tokens[1].scope", "write"))
                .isInstanceOf(BindException.class)
                .rootCause().isInstanceOf(InvalidPropertyException.class)
                .hasMessage("'berth.acl.tokens[1].secret' must not be blank");
    }
}
