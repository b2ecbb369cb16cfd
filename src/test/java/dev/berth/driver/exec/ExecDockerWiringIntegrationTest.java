package dev.berth.driver.exec;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.berth.driver.DriverFingerprint;
import dev.berth.driver.DriverManager;
import dev.berth.support.AgentIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/** The full agent registers exec and docker; both stay undetected unless enabled (the shared test agent enables neither). */
@AgentIntegrationTest
class ExecDockerWiringIntegrationTest {

    @Autowired
    DriverManager drivers;

    @Test
    void execAndDockerAreRegisteredAndDisabledByDefault() {
        assertThat(drivers.driver("exec").orElseThrow().fingerprint()).isEqualTo(DriverFingerprint.disabled());
        assertThat(drivers.driver("docker").orElseThrow().fingerprint()).isEqualTo(DriverFingerprint.disabled());
    }
}
