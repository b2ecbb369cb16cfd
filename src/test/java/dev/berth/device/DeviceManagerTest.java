package dev.berth.device;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class DeviceManagerTest {

    private static final Duration CALL_TIMEOUT = Duration.ofMillis(300);

    private final ControlledSleeper sleeper = new ControlledSleeper();

    private final DeviceStatsIndex index = new DeviceStatsIndex();

    private final List<List<DeviceGroup>> published = new CopyOnWriteArrayList<>();

    private DeviceManager manager;

    private DeviceManager start(DevicePlugin... plugins) {
        DeviceProperties properties = new DeviceProperties(Duration.ofSeconds(5), CALL_TIMEOUT,
                new DeviceProperties.Example(false, null, "berth", "file", "example", Duration.ofSeconds(1)),
                new DeviceProperties.Nvidia(false, "nvidia-smi", Duration.ofMinutes(1)));
        manager = new DeviceManager(List.of(plugins), properties, sleeper, index, List.of(published::add));
        manager.start();
        return manager;
    }

    @AfterEach
    void stop() {
        if (manager != null) {
            manager.stop();
        }
    }

    private List<DeviceGroup> lastPublished() {
        return published.isEmpty() ? List.of() : published.getLast();
    }

    @Test
    void publishesFingerprintsAndStartsStatsOnlyAfterTheFirst() {
        ScriptedPlugin plugin = new ScriptedPlugin("p");
        QueueStream<List<DeviceGroup>> fingerprints = plugin.nextFingerprintStream();
        QueueStream<List<DeviceGroupStats>> stats = plugin.nextStatsStream();
        start(plugin);

        await().until(() -> plugin.fingerprintCalls.get() == 1);
        assertThat(plugin.statsCalls.get()).isZero();

        DeviceGroup gpu = ScriptedPlugin.group("nvidia", "gpu", "T4", "GPU-1", "GPU-2");
        fingerprints.emit(List.of(gpu));
        await().until(() -> lastPublished().equals(List.of(gpu)));
        assertThat(manager.devices()).containsExactly(gpu);
        await().until(() -> plugin.statsCalls.get() == 1);

        DeviceStats one = new DeviceStats(StatValue.ofInt(1, "MiB", ""), StatObject.of(Map.of()), Instant.EPOCH);
        stats.emit(List.of(DeviceGroupStats.of(gpu.key(), Map.of("GPU-1", one))));
        await().until(() -> index.get("GPU-1") != null);
        assertThat(index.get("GPU-1").group()).isEqualTo(gpu.key());

        // a changed fingerprint replaces the old one as a whole
        DeviceGroup smaller = ScriptedPlugin.group("nvidia", "gpu", "T4", "GPU-1");
        fingerprints.emit(List.of(smaller));
        await().until(() -> lastPublished().equals(List.of(smaller)));
        assertThat(sleeper.sleeps()).isEmpty();
    }

    @Test
    void throwingPluginIsRestartedWithExponentialBackoffThatResetsOnSuccess() {
        ScriptedPlugin plugin = new ScriptedPlugin("p");
        plugin.fingerprintSteps.add(new ScriptedPlugin.Throw<>("boom 1"));
        plugin.fingerprintSteps.add(new ScriptedPlugin.Throw<>("boom 2"));
        plugin.fingerprintSteps.add(new ScriptedPlugin.Throw<>("boom 3"));
        QueueStream<List<DeviceGroup>> good = plugin.nextFingerprintStream();
        start(plugin);

        for (int i = 1; i <= 3; i++) {
            int sleeps = i;
            await().until(() -> sleeper.sleeps().size() == sleeps);
            sleeper.proceed();
        }
        assertThat(sleeper.sleeps()).containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(20));

        DeviceGroup group = ScriptedPlugin.group("v", "t", "n", "a");
        good.emit(List.of(group));
        await().until(() -> lastPublished().equals(List.of(group)));

        // the success reset the attempts: the next failure waits 5s again
        QueueStream<List<DeviceGroup>> next = plugin.nextFingerprintStream();
        good.fail("lost the device", null);
        await().until(() -> sleeper.sleeps().size() == 4);
        assertThat(sleeper.sleeps().get(3)).isEqualTo(Duration.ofSeconds(5));
        sleeper.proceed();
        next.emit(List.of(group));
        await().until(() -> lastPublished().equals(List.of(group)));
    }

    @Test
    void hangingPluginCallTimesOutAndDoesNotBlockTheAgent() {
        ScriptedPlugin plugin = new ScriptedPlugin("p");
        plugin.fingerprintSteps.add(new ScriptedPlugin.Hang<>());
        start(plugin);

        await().atMost(Duration.ofSeconds(5)).until(() -> sleeper.sleeps().size() == 1);
        assertThat(sleeper.sleeps()).containsExactly(Duration.ofSeconds(5));
        assertThat(manager.devices()).isEmpty();
        long before = System.nanoTime();
        manager.stop();
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(2));
        manager = null;
    }

    @Test
    void streamWithoutAFirstFingerprintWithinTheTimeoutCountsAsFailed() {
        ScriptedPlugin plugin = new ScriptedPlugin("p");
        QueueStream<List<DeviceGroup>> silent = plugin.nextFingerprintStream();
        start(plugin);

        await().atMost(Duration.ofSeconds(5)).until(() -> sleeper.sleeps().size() == 1);
        assertThat(silent.isClosed()).isTrue();
        assertThat(plugin.statsCalls.get()).isZero();
    }

    @Test
    void closedStreamMarksDevicesUnhealthyAndTheRestartedPluginRecovers() {
        ScriptedPlugin plugin = new ScriptedPlugin("p");
        QueueStream<List<DeviceGroup>> first = plugin.nextFingerprintStream();
        QueueStream<List<DeviceGroupStats>> stats = plugin.nextStatsStream();
        start(plugin);
        DeviceGroup group = ScriptedPlugin.group("v", "t", "n", "a", "b");
        first.emit(List.of(group));
        await().until(() -> lastPublished().equals(List.of(group)));
        stats.emit(List.of(DeviceGroupStats.of(group.key(), Map.of("a", new DeviceStats(StatValue.ofInt(1, "", ""), null, Instant.EPOCH)))));
        await().until(() -> index.get("a") != null);

        QueueStream<List<DeviceGroup>> second = plugin.nextFingerprintStream();
        first.end();
        await().until(() -> !lastPublished().isEmpty() && !lastPublished().getFirst().instances().getFirst().healthy());
        assertThat(lastPublished().getFirst().instances()).allSatisfy((instance) -> {
            assertThat(instance.healthy()).isFalse();
            assertThat(instance.healthDescription()).isEqualTo("device plugin failed: fingerprint stream closed");
        });
        assertThat(first.isClosed()).isTrue();
        // the failed plugin's statistics are dropped, not reported as current, and its stats stream is closed
        assertThat(index.get("a")).isNull();
        await().until(stats::isClosed);

        await().until(() -> sleeper.sleeps().size() == 1);
        sleeper.proceed();
        second.emit(List.of(group));
        await().until(() -> lastPublished().equals(List.of(group)));
        assertThat(manager.devices().getFirst().instances()).allMatch(DeviceInstance::healthy);
    }

    @Test
    void invalidOutputIsRejectedAsAWhole() {
        ScriptedPlugin plugin = new ScriptedPlugin("p");
        QueueStream<List<DeviceGroup>> stream = plugin.nextFingerprintStream();
        start(plugin);
        DeviceGroup valid = ScriptedPlugin.group("v", "t", "n", "a");
        DeviceGroup noVendor = ScriptedPlugin.group("", "t", "n2", "b");
        stream.emit(List.of(valid, noVendor));

        await().until(() -> sleeper.sleeps().size() == 1);
        assertThat(manager.devices()).isEmpty();
        assertThat(published).isEmpty();
        assertThat(stream.isClosed()).isTrue();
    }

    @Test
    void validationCatchesEveryKindOfBadGroup() {
        assertThat(ScriptedPlugin.group("v", "t", "n", "a").problems()).isEmpty();
        assertThat(new DeviceGroup("", " ", null, null, null).problems()).containsExactly(
                "device vendor must be specified", "device type must be specified", "device name must be specified",
                "device instances must be specified");
        assertThat(new DeviceGroup("v", "t", "n", null, java.util.Arrays.asList(DeviceInstance.healthy("", null), null)).problems())
                .containsExactly("device instance 0 must have an ID", "device instance 1 is null");
        assertThat(new DeviceGroup("v", "t", "n", Map.of("a", Attribute.ofInt(1, "furlongs")), List.of()).problems())
                .containsExactly("attribute \"a\" invalid: unknown unit \"furlongs\"");
        assertThat(new DeviceGroup("v", "t", "n", Map.of("a", new Attribute(null, null, "x", null, "MiB")), List.of()).problems())
                .containsExactly("attribute \"a\" invalid: unit can only be specified on an integer or float value");
        assertThat(new DeviceGroup("v", "t", "n", Map.of("a", Attribute.ofFloat(1.5, "GHz")), List.of()).problems()).isEmpty();
    }

    @Test
    void duplicateInstanceIdsAcrossGroupsAreInvalid() {
        ScriptedPlugin plugin = new ScriptedPlugin("p");
        QueueStream<List<DeviceGroup>> stream = plugin.nextFingerprintStream();
        start(plugin);
        stream.emit(List.of(ScriptedPlugin.group("v", "t", "n", "a"), ScriptedPlugin.group("v", "t", "m", "a")));
        await().until(() -> sleeper.sleeps().size() == 1);
        assertThat(manager.devices()).isEmpty();
    }

    @Test
    void statsFailuresBackOffIndependentlyAndRecover() {
        ScriptedPlugin plugin = new ScriptedPlugin("p");
        QueueStream<List<DeviceGroup>> fingerprints = plugin.nextFingerprintStream();
        plugin.statsSteps.add(new ScriptedPlugin.Throw<>("no stats"));
        QueueStream<List<DeviceGroupStats>> failing = plugin.nextStatsStream();
        QueueStream<List<DeviceGroupStats>> good = plugin.nextStatsStream();
        start(plugin);
        DeviceGroup group = ScriptedPlugin.group("v", "t", "n", "a");
        fingerprints.emit(List.of(group));

        await().until(() -> sleeper.sleeps().size() == 1);
        sleeper.proceed();
        failing.end();
        await().until(() -> sleeper.sleeps().size() == 2);
        assertThat(sleeper.sleeps()).containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(10));
        sleeper.proceed();
        DeviceStats stats = new DeviceStats(StatValue.ofInt(0, "", ""), null, Instant.EPOCH);
        good.emit(List.of(DeviceGroupStats.of(group.key(), Map.of("a", stats))));
        await().until(() -> index.get("a") != null);
        // the devices themselves stayed healthy: statistics problems do not make a device unusable
        assertThat(manager.devices()).containsExactly(group);
    }

    @Test
    void backoffDoublesFromFiveSecondsAndIsCappedAtThirtyMinutes() {
        assertThat(Backoff.delay(0)).isEqualTo(Duration.ofSeconds(5));
        assertThat(Backoff.delay(1)).isEqualTo(Duration.ofSeconds(10));
        assertThat(Backoff.delay(8)).isEqualTo(Duration.ofSeconds(1280));
        assertThat(Backoff.delay(9)).isEqualTo(Duration.ofMinutes(30));
        assertThat(Backoff.delay(63)).isEqualTo(Duration.ofMinutes(30));
        assertThat(Backoff.delay(Integer.MAX_VALUE)).isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void reservationsGoToThePluginWhoseGroupHoldsAllIds() throws Exception {
        ScriptedPlugin first = new ScriptedPlugin("first");
        ScriptedPlugin second = new ScriptedPlugin("second");
        QueueStream<List<DeviceGroup>> a = first.nextFingerprintStream();
        QueueStream<List<DeviceGroup>> b = second.nextFingerprintStream();
        start(first, second);
        a.emit(List.of(ScriptedPlugin.group("nvidia", "gpu", "T4", "g1", "g2")));
        b.emit(List.of(ScriptedPlugin.group("intel", "fpga", "F1", "f1"), ScriptedPlugin.group("intel", "fpga", "F2", "f2")));
        await().until(() -> manager.devices().size() == 3);

        assertThat(manager.reserve(List.of("g2", "g1")).envs()).containsEntry("PLUGIN", "first").containsEntry("IDS", "g2,g1");
        assertThat(manager.reserve(List.of("f2")).envs()).containsEntry("PLUGIN", "second");
        assertThat(first.reserved).containsExactly(List.of("g2", "g1"));
        assertThat(second.reserved).containsExactly(List.of("f2"));

        assertThatThrownBy(() -> manager.reserve(List.of("f1", "f2"))).isInstanceOf(UnknownDeviceException.class)
                .hasMessage("operation on unknown device(s) \"intel/fpga/F1\" ([f1 f2]): failed to reserve devices");
        assertThatThrownBy(() -> manager.reserve(new DeviceGroupKey("nvidia", "gpu", "T4"), List.of("g1", "nope")))
                .hasMessage("operation on unknown device(s) \"nvidia/gpu/T4\" ([g1 nope]): failed to reserve devices");
        assertThat(manager.reserve(List.of())).isEqualTo(Reservation.EMPTY);
    }

    @Test
    void aHangingReserveTimesOut() {
        ScriptedPlugin plugin = new ScriptedPlugin("p");
        QueueStream<List<DeviceGroup>> stream = plugin.nextFingerprintStream();
        start(plugin);
        stream.emit(List.of(ScriptedPlugin.group("v", "t", "n", "a")));
        await().until(() -> !manager.devices().isEmpty());
        plugin.hangOnReserve = true;
        assertThatThrownBy(() -> manager.reserve(List.of("a"))).isInstanceOf(DeviceException.class)
                .hasMessage("device plugin \"p\" reserve timed out after PT0.3S");
    }

    @Test
    void awaitsTheFirstFingerprintOfEveryPluginAndAnEmptyOneCounts() throws Exception {
        ScriptedPlugin empty = new ScriptedPlugin("empty");
        ScriptedPlugin slow = new ScriptedPlugin("slow");
        QueueStream<List<DeviceGroup>> e = empty.nextFingerprintStream();
        QueueStream<List<DeviceGroup>> s = slow.nextFingerprintStream();
        start(empty, slow);
        e.emit(List.of());
        assertThat(manager.awaitFirstFingerprints(Duration.ofMillis(50))).isFalse();
        s.emit(List.of(ScriptedPlugin.group("v", "t", "n", "a")));
        assertThat(manager.awaitFirstFingerprints(Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void aPluginThatFailsFirstCountsAsSettled() throws Exception {
        ScriptedPlugin broken = new ScriptedPlugin("broken");
        broken.fingerprintSteps.add(new ScriptedPlugin.Throw<>("no driver"));
        start(broken);
        assertThat(manager.awaitFirstFingerprints(Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void aStreamWhoseCloseHangsDoesNotStallTheSupervisor() {
        ScriptedPlugin plugin = new ScriptedPlugin("p");
        QueueStream<List<DeviceGroup>> stuck = new QueueStream<List<DeviceGroup>>().onClose(() -> {
            while (true) {
                java.util.concurrent.locks.LockSupport.park();
            }
        });
        plugin.fingerprintSteps.add(new ScriptedPlugin.Open<>(stuck));
        start(plugin);
        DeviceGroup group = ScriptedPlugin.group("v", "t", "n", "a");
        stuck.emit(List.of(group));
        stuck.end();

        await().atMost(Duration.ofSeconds(5)).until(() -> manager.devices().getFirst().instances().stream().noneMatch(DeviceInstance::healthy));
        await().atMost(Duration.ofSeconds(5)).until(() -> sleeper.sleeps().equals(List.of(Duration.ofSeconds(5))));
    }

    @Test
    void pluginNamesMustBeUnique() {
        assertThatThrownBy(() -> start(new ScriptedPlugin("x"), new ScriptedPlugin("x")))
                .hasMessage("two device plugins are named 'x'");
    }
}
