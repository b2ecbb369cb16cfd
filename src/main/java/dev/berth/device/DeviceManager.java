package dev.berth.device;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;

import dev.berth.config.Sleeper;

/**
 * Runs every {@link DevicePlugin} under a {@link PluginSupervisor}, publishes the node's device list to
 * {@link DeviceUpdateListener}s, keeps the {@link DeviceStatsIndex} of latest statistics and routes reservations to
 * the plugin that owns the requested instances.
 *
 * <p>Lifecycle phase {@link #PHASE}: after fingerprinting and state, before allocations are restored (which need
 * devices to reserve). Stopping ends the plugins' threads; it never touches running tasks.
 */
public class DeviceManager implements SmartLifecycle {

    /** Start phase; allocation restore must use a higher one. */
    public static final int PHASE = 1000;

    private static final Logger log = LoggerFactory.getLogger(DeviceManager.class);

    private final List<PluginSupervisor> supervisors;

    private final List<DeviceUpdateListener> listeners;

    private final DeviceStatsIndex index;

    private final Duration callTimeout;

    private volatile boolean running;

    public DeviceManager(List<DevicePlugin> plugins, DeviceProperties properties, Sleeper sleeper, DeviceStatsIndex index,
            List<DeviceUpdateListener> listeners) {
        this.index = index;
        this.listeners = List.copyOf(listeners);
        this.callTimeout = properties.callTimeout();
        Set<String> names = new LinkedHashSet<>();
        List<PluginSupervisor> all = new ArrayList<>();
        for (DevicePlugin plugin : plugins) {
            if (!names.add(plugin.name())) {
                throw new IllegalStateException("two device plugins are named '" + plugin.name() + "'");
            }
            all.add(new PluginSupervisor(plugin, properties.callTimeout(), properties.statsInterval(), sleeper, index,
                    this::publish));
        }
        this.supervisors = List.copyOf(all);
    }

    /** The node's devices: every plugin's latest fingerprint, in plugin order. */
    public List<DeviceGroup> devices() {
        List<DeviceGroup> all = new ArrayList<>();
        for (PluginSupervisor supervisor : supervisors) {
            all.addAll(supervisor.devices());
        }
        return all;
    }

    /**
     * Waits until every plugin has delivered its first fingerprint (an empty list counts) or failed once, at most
     * {@code timeout} in total. Allocation restore calls this so a task is not restarted before its devices are known
     * (hashicorp/nomad#9473). Returns whether all plugins settled in time.
     */
    public boolean awaitFirstFingerprints(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (PluginSupervisor supervisor : supervisors) {
            if (!supervisor.awaitSettled(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
                return false;
            }
        }
        return true;
    }

    /** Latest statistics, for {@code /v1/client/stats} {@code DeviceStats} and per-task lookups. */
    public DeviceStatsIndex statsIndex() {
        return index;
    }

    /**
     * Reserves instances for a task through the plugin whose group holds <em>all</em> of them (Nomad
     * {@code manager.Reserve}); otherwise {@link UnknownDeviceException} with Nomad's text.
     */
    public Reservation reserve(List<String> ids) throws DeviceException, InterruptedException {
        return reserve(null, ids);
    }

    /** As {@link #reserve(List)}, naming {@code group} in the error when nothing matches. */
    public Reservation reserve(DeviceGroupKey group, List<String> ids) throws DeviceException, InterruptedException {
        if (ids.isEmpty()) {
            return Reservation.EMPTY;
        }
        for (PluginSupervisor supervisor : supervisors) {
            for (DeviceGroup candidate : supervisor.devices()) {
                if (group != null && !group.equals(candidate.key())) {
                    continue;
                }
                Set<String> held = new java.util.HashSet<>();
                candidate.instances().forEach((instance) -> held.add(instance.id()));
                if (held.containsAll(ids)) {
                    List<String> copy = List.copyOf(ids);
                    return PluginCalls.call(supervisor.name(), "reserve", callTimeout, () -> supervisor.plugin().reserve(copy));
                }
            }
        }
        throw new UnknownDeviceException(group != null ? group : groupOf(ids), ids);
    }

    private DeviceGroupKey groupOf(List<String> ids) {
        for (DeviceGroup candidate : devices()) {
            for (DeviceInstance instance : candidate.instances()) {
                if (ids.contains(instance.id())) {
                    return candidate.key();
                }
            }
        }
        return null;
    }

    private void publish() {
        List<DeviceGroup> devices = devices();
        for (DeviceUpdateListener listener : listeners) {
            try {
                listener.devicesUpdated(devices);
            }
            catch (RuntimeException ex) {
                log.warn("device update listener {} failed", listener, ex);
            }
        }
    }

    @Override
    public void start() {
        running = true;
        supervisors.forEach(PluginSupervisor::start);
    }

    @Override
    public void stop() {
        running = false;
        supervisors.forEach(PluginSupervisor::stop);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
