package dev.berth.fingerprint;

import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Nomad's applyNodeUpdatesFromDriver, with the #4984 fix. */
class DriverNodeUpdatesTest {

    private static final Instant T1 = TestNodes.T0.plusSeconds(1);
    private static final Instant T2 = TestNodes.T0.plusSeconds(2);

    @Test
    void firstSightStoresInfoCopiesAttributesAndSetsDriverFlag() {
        DriverInfo info = new DriverInfo(Map.of("driver.raw_exec", "true", "driver.raw_exec.version", "0.1"), true, true,
                "Healthy", T1);

        Node node = DriverNodeUpdates.apply(TestNodes.initial(), "raw_exec", info, T1);

        assertThat(node.drivers()).containsEntry("raw_exec", info);
        // The COMPAT flag wins over the driver's own value on the node, but not inside DriverInfo.
        assertThat(node.attributes()).containsEntry("driver.raw_exec", "1").containsEntry("driver.raw_exec.version", "0.1");
        assertThat(node.drivers().get("raw_exec").attributes()).containsEntry("driver.raw_exec", "true");
        assertThat(node.events()).hasSize(1);
    }

    @Test
    void driverThatStartsUnhealthyBecomesHealthyOnTheNode() {
        Node node = DriverNodeUpdates.apply(TestNodes.initial(), "mock_driver",
                new DriverInfo(Map.of(), true, false, "starting up", T1), T1);
        DriverInfo healthy = new DriverInfo(Map.of("driver.mock_driver", "true"), true, true, "Healthy", T2);

        node = DriverNodeUpdates.apply(node, "mock_driver", healthy, T2);

        // Bug #4984 kept the first DriverInfo forever; the whole new info must replace it.
        assertThat(node.drivers().get("mock_driver")).isEqualTo(healthy);
        assertThat(node.events()).last().satisfies(e -> {
            assertThat(e.subsystem()).isEqualTo("Driver");
            assertThat(e.message()).isEqualTo("Healthy");
            assertThat(e.details()).containsExactly(Map.entry("driver", "mock_driver"));
            assertThat(e.timestamp()).isEqualTo(T2);
        });
    }

    @Test
    void unchangedFingerprintKeepsTheOldInfoAndItsUpdateTime() {
        DriverInfo first = new DriverInfo(Map.of("a", "1"), true, true, "Healthy", T1);
        Node node = DriverNodeUpdates.apply(TestNodes.initial(), "d", first, T1);

        Node again = DriverNodeUpdates.apply(node, "d", new DriverInfo(Map.of("a", "1"), true, true, "Healthy", T2), T2);

        assertThat(again.drivers().get("d").updateTime()).isEqualTo(T1);
        assertThat(again).isEqualTo(node);
    }

    @Test
    void attributeChangeReplacesInfoWithoutHealthEvent() {
        Node node = DriverNodeUpdates.apply(TestNodes.initial(), "d",
                new DriverInfo(Map.of("d.version", "1", "d.gone", "x"), true, true, "Healthy", T1), T1);
        int events = node.events().size();

        node = DriverNodeUpdates.apply(node, "d",
                new DriverInfo(Map.of("d.version", "2", "d.cleared", ""), true, true, "Healthy", T2), T2);

        assertThat(node.drivers().get("d").updateTime()).isEqualTo(T2);
        assertThat(node.attributes()).containsEntry("d.version", "2").doesNotContainKeys("d.gone", "d.cleared");
        assertThat(node.events()).hasSize(events);
    }

    @Test
    void undetectedDriverLosesItsFlagAndFailureIsRecorded() {
        Node node = DriverNodeUpdates.apply(TestNodes.initial(), "d", new DriverInfo(Map.of(), true, true, "Healthy", T1), T1);

        node = DriverNodeUpdates.apply(node, "d", DriverInfo.failed(T2), T2);

        assertThat(node.attributes()).doesNotContainKey("driver.d");
        assertThat(node.drivers().get("d")).satisfies(d -> {
            assertThat(d.detected()).isFalse();
            assertThat(d.healthy()).isFalse();
            assertThat(d.healthDescription()).isEqualTo("failed to fingerprint driver");
        });
        assertThat(node.events()).last().extracting(NodeEvent::message).isEqualTo("failed to fingerprint driver");
    }

    @Test
    void healthChangeWithEmptyDescriptionWritesNoEvent() {
        Node node = DriverNodeUpdates.apply(TestNodes.initial(), "d", new DriverInfo(Map.of(), true, true, "Healthy", T1), T1);
        int events = node.events().size();

        node = DriverNodeUpdates.apply(node, "d", new DriverInfo(Map.of(), true, false, "", T2), T2);

        assertThat(node.drivers().get("d").healthy()).isFalse();
        assertThat(node.events()).hasSize(events);
    }
}
