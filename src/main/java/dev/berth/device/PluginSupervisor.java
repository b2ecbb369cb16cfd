package dev.berth.device;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.config.Sleeper;

/**
 * Supervises one {@link DevicePlugin} on two virtual threads: the fingerprint loop and, once the first fingerprint
 * arrived, the statistics loop.
 *
 * <p>Unlike Nomad, which gives up on a plugin after a fingerprint error, a failing plugin (a call that throws or times
 * out, a stream that fails or closes, invalid output) has its devices marked unhealthy and is restarted after
 * {@link Backoff#delay} ({@code 5s·2^n}, capped at 30 min); a valid fingerprint resets the count. Statistics failures
 * back off the same way, independently.
 */
final class PluginSupervisor {

    private static final Logger log = LoggerFactory.getLogger(PluginSupervisor.class);

    /** How long one wait on an established fingerprint stream lasts before looping (to notice a stop). */
    private static final Duration IDLE_POLL = Duration.ofMinutes(1);

    private final DevicePlugin plugin;

    private final Duration callTimeout;

    private final Duration statsInterval;

    private final Sleeper sleeper;

    private final DeviceStatsIndex index;

    private final Runnable onChange;

    private volatile List<DeviceGroup> devices = List.of();

    /** Counted down once the plugin has either fingerprinted or failed for the first time. */
    private final java.util.concurrent.CountDownLatch settled = new java.util.concurrent.CountDownLatch(1);

    private volatile boolean running;

    private Thread fingerprintThread;

    private volatile Thread statsThread;

    PluginSupervisor(DevicePlugin plugin, Duration callTimeout, Duration statsInterval, Sleeper sleeper,
            DeviceStatsIndex index, Runnable onChange) {
        this.plugin = plugin;
        this.callTimeout = callTimeout;
        this.statsInterval = statsInterval;
        this.sleeper = sleeper;
        this.index = index;
        this.onChange = onChange;
    }

    String name() {
        return plugin.name();
    }

    DevicePlugin plugin() {
        return plugin;
    }

    /** The latest valid fingerprint, with every instance unhealthy while the plugin is failed. */
    List<DeviceGroup> devices() {
        return devices;
    }

    /** Waits until the plugin delivered its first fingerprint (an empty one counts) or failed once. */
    boolean awaitSettled(Duration timeout) throws InterruptedException {
        return settled.await(timeout.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    synchronized void start() {
        running = true;
        fingerprintThread = Thread.ofVirtual().name("device-plugin-" + plugin.name()).start(this::fingerprintLoop);
    }

    synchronized void stop() {
        running = false;
        if (fingerprintThread != null) {
            fingerprintThread.interrupt();
            join(fingerprintThread);
        }
        stopStats();
    }

    private void fingerprintLoop() {
        int attempt = 0;
        while (running) {
            DeviceStream<List<DeviceGroup>> stream = null;
            try {
                stream = PluginCalls.call(plugin.name(), "fingerprint", callTimeout, plugin::fingerprint);
                boolean first = true;
                while (running) {
                    StreamEvent<List<DeviceGroup>> event = stream.poll(first ? callTimeout : IDLE_POLL);
                    if (event == null) {
                        if (first) {
                            throw new DeviceException("device plugin \"" + plugin.name() + "\" sent no fingerprint within " + callTimeout);
                        }
                        continue;
                    }
                    switch (event) {
                        case StreamEvent.Item<List<DeviceGroup>> item -> {
                            accept(item.value());
                            settled.countDown();
                            attempt = 0;
                            if (first) {
                                first = false;
                                startStats();
                            }
                        }
                        case StreamEvent.Failure<List<DeviceGroup>> failure ->
                            throw new DeviceException("fingerprint failed: " + failure.message(), failure.cause());
                        case StreamEvent.End<List<DeviceGroup>> end ->
                            throw new DeviceException("fingerprint stream closed");
                    }
                }
            }
            catch (InterruptedException ex) {
                if (!running) {
                    break;
                }
            }
            catch (Exception ex) {
                String reason = ex.getMessage() == null ? ex.toString() : ex.getMessage();
                Duration delay = Backoff.delay(attempt);
                log.warn("device plugin {} failed ({}); marking its devices unhealthy, retry #{} in {}", plugin.name(), reason,
                        attempt + 1, delay);
                closeQuietly(stream);
                stream = null;
                stopStats();
                markUnhealthy(reason);
                settled.countDown();
                attempt++;
                try {
                    sleeper.sleep(delay);
                }
                catch (InterruptedException interrupted) {
                    if (!running) {
                        break;
                    }
                }
            }
            finally {
                closeQuietly(stream);
            }
        }
        stopStats();
    }

    private void accept(List<DeviceGroup> groups) throws DeviceException {
        if (groups == null) {
            throw new DeviceException("invalid fingerprint: no device list");
        }
        Set<String> ids = new HashSet<>();
        for (DeviceGroup group : groups) {
            if (group == null) {
                throw new DeviceException("invalid fingerprint: null device group");
            }
            List<String> problems = group.problems();
            if (!problems.isEmpty()) {
                throw new DeviceException("invalid fingerprint for group " + group.vendor() + "/" + group.type() + "/" + group.name()
                        + ": " + String.join("; ", problems));
            }
            for (DeviceInstance instance : group.instances()) {
                if (!ids.add(instance.id())) {
                    throw new DeviceException("invalid fingerprint: duplicate device instance ID \"" + instance.id() + "\"");
                }
            }
        }
        List<DeviceGroup> accepted = List.copyOf(groups);
        if (!accepted.equals(devices)) {
            devices = accepted;
            onChange.run();
        }
    }

    private void markUnhealthy(String reason) {
        // statistics of a failed plugin are stale: drop them rather than report old values as current
        index.clear(plugin.name());
        List<DeviceGroup> current = devices;
        if (current.isEmpty()) {
            return;
        }
        String description = "device plugin failed: " + reason;
        devices = current.stream().map((group) -> group.withAllInstances(false, description)).toList();
        onChange.run();
    }

    private void startStats() {
        stopStats();
        statsThread = Thread.ofVirtual().name("device-stats-" + plugin.name()).start(this::statsLoop);
    }

    private void stopStats() {
        Thread thread = statsThread;
        statsThread = null;
        if (thread != null) {
            thread.interrupt();
            if (thread != Thread.currentThread()) {
                join(thread);
            }
        }
    }

    private void statsLoop() {
        int attempt = 0;
        Duration itemTimeout = statsInterval.plus(callTimeout);
        while (running && !Thread.currentThread().isInterrupted()) {
            DeviceStream<List<DeviceGroupStats>> stream = null;
            try {
                stream = PluginCalls.call(plugin.name(), "stats", callTimeout, () -> plugin.stats(statsInterval));
                while (true) {
                    StreamEvent<List<DeviceGroupStats>> event = stream.poll(itemTimeout);
                    switch (event) {
                        case null -> throw new DeviceException("no statistics within " + itemTimeout);
                        case StreamEvent.Item<List<DeviceGroupStats>> item -> {
                            if (item.value() != null) {
                                index.update(plugin.name(), item.value());
                            }
                            attempt = 0;
                        }
                        case StreamEvent.Failure<List<DeviceGroupStats>> failure ->
                            throw new DeviceException("stats failed: " + failure.message(), failure.cause());
                        case StreamEvent.End<List<DeviceGroupStats>> end -> throw new DeviceException("stats stream closed");
                    }
                }
            }
            catch (InterruptedException ex) {
                return;
            }
            catch (Exception ex) {
                Duration delay = Backoff.delay(attempt++);
                log.warn("device plugin {} statistics failed ({}); retry in {}", plugin.name(), ex.getMessage(), delay);
                closeQuietly(stream);
                try {
                    sleeper.sleep(delay);
                }
                catch (InterruptedException interrupted) {
                    return;
                }
            }
            finally {
                closeQuietly(stream);
            }
        }
    }

    /** Closes a plugin's stream, waiting at most the call timeout: a plugin whose close hangs cannot stall us. */
    private void closeQuietly(DeviceStream<?> stream) {
        if (stream == null) {
            return;
        }
        Thread closer = Thread.ofVirtual().name("device-close-" + plugin.name()).start(() -> {
            try {
                stream.close();
            }
            catch (RuntimeException ex) {
                log.debug("closing a device stream of {} failed", plugin.name(), ex);
            }
        });
        try {
            if (!closer.join(callTimeout)) {
                log.warn("device plugin {} did not close its stream within {}; abandoning it", plugin.name(), callTimeout);
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join(Duration.ofSeconds(5));
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
