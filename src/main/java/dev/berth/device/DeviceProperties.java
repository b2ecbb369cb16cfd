package dev.berth.device;

import java.nio.file.Path;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Device settings under {@code berth.devices}.
 *
 * @param statsInterval how often plugins report device statistics (Nomad polls every second, which is too often for
 *                      GPUs: hashicorp/nomad#6057)
 * @param callTimeout   the longest any plugin call may take before the plugin counts as hung
 * @param example       the example plugin (files as devices)
 * @param nvidia        the NVIDIA GPU plugin (nvidia-smi)
 */
@ConfigurationProperties("berth.devices")
public record DeviceProperties(
        @DefaultValue("5s") Duration statsInterval,
        @DefaultValue("10s") Duration callTimeout,
        @DefaultValue Example example,
        @DefaultValue Nvidia nvidia) {

    public DeviceProperties {
        requirePositive(statsInterval, "berth.devices.stats-interval");
        requirePositive(callTimeout, "berth.devices.call-timeout");
    }

    static void requirePositive(Duration duration, String key) {
        if (duration == null || duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException("'" + key + "' must be positive, was " + duration);
        }
    }

    /**
     * @param enabled      whether the plugin runs
     * @param dir          every regular file in it is one device instance
     * @param vendor       the group's vendor
     * @param type         the group's type
     * @param name         the group's name (model)
     * @param pollInterval how often the directory is re-read for fingerprints
     */
    public record Example(
            @DefaultValue("false") boolean enabled,
            Path dir,
            @DefaultValue("berth") String vendor,
            @DefaultValue("file") String type,
            @DefaultValue("example") String name,
            @DefaultValue("1s") Duration pollInterval) {

        public Example {
            requirePositive(pollInterval, "berth.devices.example.poll-interval");
            if (enabled && dir == null) {
                throw new IllegalArgumentException("'berth.devices.example.dir' must be set when the example plugin is enabled");
            }
        }
    }

    /**
     * @param enabled           whether the plugin runs
     * @param smiPath           the {@code nvidia-smi} executable
     * @param fingerprintPeriod how often GPUs are listed (Nomad: 1m)
     * @param ignoredGpuIds     UUIDs of GPUs the agent must not offer (Nomad's {@code ignored_gpu_ids})
     */
    public record Nvidia(
            @DefaultValue("false") boolean enabled,
            @DefaultValue("nvidia-smi") String smiPath,
            @DefaultValue("1m") Duration fingerprintPeriod,
            java.util.List<String> ignoredGpuIds) {

        public Nvidia(boolean enabled, String smiPath, Duration fingerprintPeriod) {
            this(enabled, smiPath, fingerprintPeriod, java.util.List.of());
        }

        @ConstructorBinding
        public Nvidia {
            ignoredGpuIds = ignoredGpuIds == null ? java.util.List.of() : java.util.List.copyOf(ignoredGpuIds);
            requirePositive(fingerprintPeriod, "berth.devices.nvidia.fingerprint-period");
        }
    }
}
