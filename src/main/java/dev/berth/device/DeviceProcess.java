package dev.berth.device;

/**
 * A process using a device instance, as the plugin sees it (for a GPU: {@code nvidia-smi --query-compute-apps}, and
 * {@code pmon} for utilization). Not part of Nomad's JSON: it rides along with the instance's {@link DeviceStats} so
 * the agent can attribute it to a task.
 *
 * @param pid               the host pid
 * @param usedMemoryMib     device memory it holds in MiB, or null when the plugin cannot tell
 * @param utilizationPercent its share of the device's compute (SM) time in percent, or null when unknown
 */
public record DeviceProcess(long pid, Long usedMemoryMib, Long utilizationPercent) {
}
