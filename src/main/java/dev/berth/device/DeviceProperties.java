package dev.berth.device;

import java.nio.file.Path;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

import dev.berth.config.PropertyChecks;

/**
 * Device settings under {@code berth.devices}.
 *
 * @param statsInterval how often plugins report device statistics (Nomad polls every second, which is too often for
 *                      GPUs: hashicorp/nomad#6057)
 * @param callTimeout   the longest any plugin call may take before the plugin counts as hung
 * @param example       the example plugin (files as devices)
 * @param nvidia        the NVIDIA GPU plugin (nvidia-smi)
 * @param onUnhealthy   what happens to a task whose reserved instance turns unhealthy or vanishes (a task group
 *                      overrides it with its Meta key {@value #ON_UNHEALTHY_META})
 * @param healthHoldDown how long an instance must stay healthy again before its recovery is reported
 */
@ConfigurationProperties("berth.devices")
public record DeviceProperties(
        @DefaultValue("5s") Duration statsInterval,
        @DefaultValue("10s") Duration callTimeout,
        @DefaultValue Example example,
        @DefaultValue Nvidia nvidia,
        @DefaultValue("none") OnUnhealthy onUnhealthy,
        @DefaultValue("30s") Duration healthHoldDown) {

    /** The task group Meta key that overrides {@code berth.devices.on-unhealthy} for that group. */
    public static final String ON_UNHEALTHY_META = "berth.devices.on-unhealthy";

    public DeviceProperties(Duration statsInterval, Duration callTimeout, Example example, Nvidia nvidia) {
        this(statsInterval, callTimeout, example, nvidia, OnUnhealthy.NONE, Duration.ofSeconds(30));
    }

    @ConstructorBinding
    public DeviceProperties {
        PropertyChecks.positive("berth.devices.stats-interval", statsInterval);
        PropertyChecks.positive("berth.devices.call-timeout", callTimeout);
        onUnhealthy = onUnhealthy == null ? OnUnhealthy.NONE : onUnhealthy;
        healthHoldDown = healthHoldDown == null ? Duration.ofSeconds(30) : healthHoldDown;
        if (healthHoldDown.isNegative()) {
            throw new IllegalArgumentException("'berth.devices.health-hold-down' must not be negative, was " + healthHoldDown);
        }
    }

    /** What a task's reserved instance turning unhealthy does to the task (beyond the {@code Device Unhealthy} event). */
    public enum OnUnhealthy {
        /** Only the event. */
        NONE,
        /** The task is restarted (counts as a failure for its restart policy). */
        RESTART,
        /** The task is killed and fails. */
        FAIL;

        /** Parses {@code none|restart|fail} (any case); null for anything else. */
        public static OnUnhealthy parse(String value) {
            if (value == null) {
                return null;
            }
            for (OnUnhealthy candidate : values()) {
                if (candidate.name().equalsIgnoreCase(value.strip())) {
                    return candidate;
                }
            }
            return null;
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
            PropertyChecks.positive("berth.devices.example.poll-interval", pollInterval);
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
     * @param processStats      whether statistics list each GPU's compute processes (attributed to tasks)
     * @param pmon              whether statistics also sample per-process utilization with {@code nvidia-smi pmon}
     * @param jobMappingDir     where to keep dcgm-exporter {@code --hpc-job-mapping-dir} files; null: off
     * @param jobMappingFormat  what each line of a mapping file names
     */
    public record Nvidia(
            @DefaultValue("false") boolean enabled,
            @DefaultValue("nvidia-smi") String smiPath,
            @DefaultValue("1m") Duration fingerprintPeriod,
            java.util.List<String> ignoredGpuIds,
            @DefaultValue("true") boolean processStats,
            @DefaultValue("false") boolean pmon,
            Path jobMappingDir,
            @DefaultValue("alloc-id") JobMappingFormat jobMappingFormat) {

        public Nvidia(boolean enabled, String smiPath, Duration fingerprintPeriod) {
            this(enabled, smiPath, fingerprintPeriod, java.util.List.of(), true, false, null, JobMappingFormat.ALLOC_ID);
        }

        @ConstructorBinding
        public Nvidia {
            ignoredGpuIds = ignoredGpuIds == null ? java.util.List.of() : java.util.List.copyOf(ignoredGpuIds);
            PropertyChecks.positive("berth.devices.nvidia.fingerprint-period", fingerprintPeriod);
            jobMappingFormat = jobMappingFormat == null ? JobMappingFormat.ALLOC_ID : jobMappingFormat;
        }
    }

    /** A mapping file's line per holder: the allocation ID, or {@code <job>/<alloc id>/<task>}. */
    public enum JobMappingFormat {
        ALLOC_ID, JOB_ALLOC_TASK
    }
}
