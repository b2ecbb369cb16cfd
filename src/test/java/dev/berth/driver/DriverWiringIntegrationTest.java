package dev.berth.driver;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.berth.support.AgentIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/** The full agent registers both drivers, enabled by the shared test properties. */
@AgentIntegrationTest
class DriverWiringIntegrationTest {

    @Autowired
    DriverManager drivers;

    @Test
    void mockAndRawExecAreRegisteredAndHealthy() {
        assertThat(drivers.driver("mock_driver").orElseThrow().fingerprint())
                .isEqualTo(DriverFingerprint.healthy(Map.of("driver.mock_driver", "true")));
        DriverFingerprint rawExec = drivers.driver("raw_exec").orElseThrow().fingerprint();
        assertThat(rawExec.health()).isEqualTo(HealthState.HEALTHY);
        // this host's tasks get cgroups (root, v1 or v2): raw_exec says so beside its presence
        assertThat(rawExec.attributes()).containsEntry("driver.raw_exec", "true").containsEntry("driver.raw_exec.cgroups", "true");
    }
}
