package dev.berth.alloc;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.berth.device.DeviceInstance;
import dev.berth.device.DeviceStatsView;
import dev.berth.device.TaskRef;

import static org.assertj.core.api.Assertions.assertThat;

/** The outage state machine behind {@code Device Unhealthy} / {@code Device Healthy}, with explicit times. */
class DeviceOutagesTest {

    static final Instant T0 = Instant.parse("2026-11-25T00:00:00Z");

    static final TaskRef TRAINER = new TaskRef("a-1", "train", "trainer");

    final DeviceOutages outages = new DeviceOutages(Duration.ofSeconds(30));

    static Map<String, DeviceInstance> gpu(boolean healthy, String reason) {
        return Map.of("g1", new DeviceInstance("g1", healthy, reason, null));
    }

    @Test
    void anOutageIsToldOnceAndItsRecoveryAfterTheHoldDown() {
        Map<String, TaskRef> held = Map.of("g1", TRAINER);
        assertThat(outages.update(held, gpu(true, ""), T0)).isEmpty();

        assertThat(outages.update(held, gpu(false, "XID 79"), T0.plusSeconds(1))).containsExactly(
                new DeviceOutages.Notice(DeviceOutages.Kind.UNHEALTHY, "g1", TRAINER, "XID 79"));
        assertThat(outages.update(held, gpu(false, "XID 79"), T0.plusSeconds(2))).isEmpty();

        assertThat(outages.update(held, gpu(true, ""), T0.plusSeconds(10))).isEmpty();
        assertThat(outages.waitingForRecovery()).isTrue();
        assertThat(outages.due(T0.plusSeconds(39))).isEmpty();
        assertThat(outages.due(T0.plusSeconds(40))).containsExactly(new DeviceOutages.Notice(DeviceOutages.Kind.RECOVERED, "g1", TRAINER, null));
        assertThat(outages.due(T0.plusSeconds(100))).isEmpty();

        // a new outage after the recovery is told again
        assertThat(outages.update(held, Map.of(), T0.plusSeconds(200))).containsExactly(
                new DeviceOutages.Notice(DeviceOutages.Kind.UNHEALTHY, "g1", TRAINER, DeviceStatsView.GONE));
    }

    @Test
    void aRelapseWithinTheHoldDownIsTheSameOutage() {
        Map<String, TaskRef> held = Map.of("g1", TRAINER);
        assertThat(outages.update(held, gpu(false, "XID 48"), T0)).hasSize(1);
        outages.update(held, gpu(true, ""), T0.plusSeconds(5));
        assertThat(outages.update(held, gpu(false, "XID 48"), T0.plusSeconds(20))).isEmpty();
        // the first recovery's hold-down would have ended at 35 s: it no longer counts
        assertThat(outages.due(T0.plusSeconds(36))).isEmpty();
        outages.update(held, gpu(true, ""), T0.plusSeconds(40));
        assertThat(outages.due(T0.plusSeconds(69))).isEmpty();
        assertThat(outages.due(T0.plusSeconds(70))).extracting(DeviceOutages.Notice::kind).containsExactly(DeviceOutages.Kind.RECOVERED);
    }

    @Test
    void releasedOrReassignedInstancesEndTheirOutageSilentlyAndUndeliveredOnesAreToldAgain() {
        assertThat(outages.update(Map.of("g1", TRAINER), gpu(false, "x"), T0)).hasSize(1);
        outages.update(Map.of("g1", TRAINER), gpu(true, ""), T0.plusSeconds(1));
        assertThat(outages.update(Map.of(), gpu(true, ""), T0.plusSeconds(2))).isEmpty();
        assertThat(outages.due(T0.plusSeconds(100))).isEmpty();

        TaskRef other = new TaskRef("b-2", "web", "server");
        assertThat(outages.update(Map.of("g1", other), gpu(false, "y"), T0.plusSeconds(3))).extracting(DeviceOutages.Notice::holder)
                .containsExactly(other);
        outages.forget("g1");
        assertThat(outages.update(Map.of("g1", other), gpu(false, "y"), T0.plusSeconds(4))).hasSize(1);
    }
}
