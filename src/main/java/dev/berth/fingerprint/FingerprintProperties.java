package dev.berth.fingerprint;

import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import dev.berth.config.PropertyChecks;

/**
 * Settings under {@code berth.fingerprint}.
 *
 * @param driverTimeout    how long one driver fingerprint call may take before it counts as failed
 * @param networkInterface interface whose IPv4 address becomes {@code unique.network.ip-address}; empty picks the
 *                         interface of the default route
 * @param denylist         names of host fingerprinters not to run
 */
@ConfigurationProperties("berth.fingerprint")
public record FingerprintProperties(
        @DefaultValue("5s") Duration driverTimeout,
        @DefaultValue("") String networkInterface,
        List<String> denylist) {

    public FingerprintProperties {
        PropertyChecks.positive("berth.fingerprint.driver-timeout", driverTimeout);
        networkInterface = networkInterface == null ? "" : networkInterface;
        denylist = denylist == null ? List.of() : List.copyOf(denylist);
    }

    public static FingerprintProperties defaults() {
        return new FingerprintProperties(Duration.ofSeconds(5), "", List.of());
    }
}
