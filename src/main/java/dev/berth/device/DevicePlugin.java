package dev.berth.device;

import java.time.Duration;
import java.util.List;

/**
 * A device plugin: finds devices on the host, reports their statistics and prepares them for tasks. Implementations are
 * Spring beans; the {@link DeviceManager} runs one supervisor per plugin.
 *
 * <p><b>Streams.</b> Fingerprints and statistics are {@link DeviceStream}s: blocking queues the plugin fills from its
 * own thread and the supervisor drains. A stream delivers {@link StreamEvent.Item items} until it ends with a
 * {@link StreamEvent.Failure} or {@link StreamEvent.End}; after either, the supervisor closes it and opens a new one
 * (after a backoff). {@link DeviceStream#close()} must stop the plugin's producer thread.
 *
 * <p><b>Timeouts.</b> The supervisor never trusts a plugin to return: every call here runs with
 * {@code berth.devices.call-timeout}, the first fingerprint must arrive within it, and each statistics item must arrive
 * within {@code stats-interval + call-timeout}. A plugin that misses one is treated as failed: its devices are marked
 * unhealthy and it is restarted with exponential backoff.
 *
 * <p>Methods may be called from any thread; {@link #reserve} concurrently with the streams.
 */
public interface DevicePlugin {

    /** A short unique name, e.g. {@code nvidia-gpu}; used in logs, thread names and metrics. */
    String name();

    /**
     * Opens the fingerprint stream. The first item is the complete current list of device groups (an empty list is a
     * valid answer); after that the plugin sends the complete list again whenever anything changes (a device appears
     * or disappears, health changes). Every item replaces the previous one and must pass validation as a whole
     * ({@link DeviceGroup#problems()}), or the plugin is treated as failed.
     */
    DeviceStream<List<DeviceGroup>> fingerprint() throws Exception;

    /**
     * Opens the statistics stream: one item about every {@code interval}, each the statistics of every device group.
     * Called only after the first fingerprint.
     */
    DeviceStream<List<DeviceGroupStats>> stats(Duration interval) throws Exception;

    /**
     * Prepares the given instances (all of one group of this plugin) for a task. Throws when an ID is unknown.
     */
    Reservation reserve(List<String> ids) throws Exception;
}
