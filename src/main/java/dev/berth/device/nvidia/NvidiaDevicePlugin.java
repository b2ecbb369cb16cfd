package dev.berth.device.nvidia;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.berth.device.Attribute;
import dev.berth.device.DeviceGroup;
import dev.berth.device.DeviceGroupKey;
import dev.berth.device.DeviceGroupStats;
import dev.berth.device.DeviceInstance;
import dev.berth.device.DevicePlugin;
import dev.berth.device.DeviceStats;
import dev.berth.device.DeviceStream;
import dev.berth.device.PeriodicStream;
import dev.berth.device.Reservation;
import dev.berth.config.Sleeper;
import dev.berth.device.StatObject;
import dev.berth.device.StatValue;

/**
 * NVIDIA GPUs through {@code nvidia-smi} (vendor {@code nvidia}, type {@code gpu}): groups keyed by model name,
 * instances by GPU UUID, attribute and statistic names and units as Nomad's {@code nvidia} device plugin. Values the GPU
 * cannot report become {@code StringVal:"N/A"}. {@link #reserve} sets {@code NVIDIA_VISIBLE_DEVICES}.
 */
public class NvidiaDevicePlugin implements DevicePlugin {

    public static final String NAME = "nvidia-gpu";

    public static final String VENDOR = "nvidia";

    public static final String TYPE = "gpu";

    public static final String VISIBLE_DEVICES = "NVIDIA_VISIBLE_DEVICES";

    private final NvidiaSmi smi;

    private final Duration fingerprintPeriod;

    private final Sleeper sleeper;

    private final Clock clock;

    /** UUIDs of the last fingerprint; reservations of anything else are refused. */
    private volatile Set<String> known = Set.of();

    /** Instance ID → its dcgm-exporter name ({@code <gpu index>} or {@code <gpu index>.<gpu instance>}), per fingerprint. */
    private volatile Map<String, String> dcgmNames = Map.of();

    /** Whether statistics also list compute processes ({@code --query-compute-apps}), and sample {@code pmon}. */
    private volatile boolean processStats = true;

    private volatile boolean pmon;

    private final Set<String> ignored;

    public NvidiaDevicePlugin(String smiPath, Duration fingerprintPeriod, Duration callTimeout, Sleeper sleeper, Clock clock) {
        this(smiPath, fingerprintPeriod, callTimeout, List.of(), sleeper, clock);
    }

    /** @param ignoredGpuIds UUIDs that are neither fingerprinted nor reported (Nomad's {@code ignored_gpu_ids}) */
    public NvidiaDevicePlugin(String smiPath, Duration fingerprintPeriod, Duration callTimeout, List<String> ignoredGpuIds,
            Sleeper sleeper, Clock clock) {
        this.ignored = Set.copyOf(ignoredGpuIds);
        this.smi = new NvidiaSmi(smiPath, callTimeout);
        this.fingerprintPeriod = fingerprintPeriod;
        this.sleeper = sleeper;
        this.clock = clock;
    }

    /**
     * @param processStats whether each statistics item also lists the compute processes per GPU (one more
     *                     {@code nvidia-smi} run)
     * @param pmon         whether it also samples per-process utilization with {@code nvidia-smi pmon} (another run,
     *                     which takes about a second on real GPUs)
     */
    public NvidiaDevicePlugin withProcessStats(boolean processStats, boolean pmon) {
        this.processStats = processStats;
        this.pmon = pmon;
        return this;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Instance ID → the file name dcgm-exporter's {@code --hpc-job-mapping-dir} uses for it, as last fingerprinted. */
    public Map<String, String> dcgmNames() {
        return dcgmNames;
    }

    @Override
    public DeviceStream<List<DeviceGroup>> fingerprint() {
        return PeriodicStream.start("device-nvidia-fingerprint", fingerprintPeriod, sleeper, true, this::fingerprintOnce);
    }

    @Override
    public DeviceStream<List<DeviceGroupStats>> stats(Duration interval) {
        return PeriodicStream.start("device-nvidia-stats", interval, sleeper, false, this::statsOnce);
    }

    @Override
    public Reservation reserve(List<String> ids) throws IOException {
        Set<String> current = known;
        List<String> unknown = ids.stream().filter((id) -> !current.contains(id)).toList();
        if (!unknown.isEmpty()) {
            throw new IOException("unknown device IDs: " + String.join(",", unknown));
        }
        return new Reservation(Map.of(VISIBLE_DEVICES, String.join(",", ids)), List.of(), List.of());
    }

    private List<SmiGpu> query() throws IOException, InterruptedException {
        return smi.query().stream().filter((gpu) -> gpu.uuid() != null && !ignored.contains(gpu.uuid())).toList();
    }

    List<DeviceGroup> fingerprintOnce() throws IOException, InterruptedException {
        List<SmiGpu> gpus = query();
        Map<String, List<SmiMig.MigDevice>> mig = gpus.stream().anyMatch(SmiGpu::migEnabled) ? smi.migDevices() : Map.of();
        Map<String, List<SmiGpu>> byModel = new LinkedHashMap<>();
        Map<String, DeviceGroup> migGroups = new LinkedHashMap<>();
        Set<String> uuids = new java.util.HashSet<>();
        Map<String, String> names = new java.util.HashMap<>();
        for (SmiGpu gpu : gpus) {
            String index = gpu.index() == null ? null : Long.toString(gpu.index());
            if (gpu.migEnabled()) {
                // the whole GPU cannot run CUDA work in MIG mode: only its MIG devices are offered
                for (SmiMig.MigDevice device : mig.getOrDefault(gpu.uuid(), List.of())) {
                    if (ignored.contains(device.uuid())) {
                        continue;
                    }
                    uuids.add(device.uuid());
                    if (index != null && device.gpuInstanceId() != null) {
                        names.put(device.uuid(), index + "." + device.gpuInstanceId());
                    }
                    Map<String, Attribute> own = new LinkedHashMap<>();
                    own.put("parent_uuid", Attribute.ofString(gpu.uuid()));
                    if (index != null) {
                        own.put("parent_index", Attribute.ofInt(gpu.index(), null));
                    }
                    DeviceInstance instance = new DeviceInstance(device.uuid(), true, "",
                            gpu.text(SmiGpu.PCI_BUS_ID) == null ? null : new DeviceInstance.Locality(gpu.text(SmiGpu.PCI_BUS_ID)), own);
                    String name = gpu.model() + " MIG " + device.profile();
                    DeviceGroup group = migGroups.get(name);
                    List<DeviceInstance> instances = new ArrayList<>(group == null ? List.of() : group.instances());
                    instances.add(instance);
                    Map<String, Attribute> attributes = new LinkedHashMap<>(attributes(gpu));
                    attributes.remove("memory");
                    attributes.put("mig_profile", Attribute.ofString(device.profile()));
                    migGroups.put(name, new DeviceGroup(VENDOR, TYPE, name, attributes, instances));
                }
                continue;
            }
            uuids.add(gpu.uuid());
            if (index != null) {
                names.put(gpu.uuid(), index);
            }
            byModel.computeIfAbsent(gpu.model(), (k) -> new ArrayList<>()).add(gpu);
        }
        List<DeviceGroup> groups = new ArrayList<>();
        byModel.forEach((model, members) -> {
            List<DeviceInstance> instances = new ArrayList<>();
            for (SmiGpu gpu : members) {
                instances.add(DeviceInstance.healthy(gpu.uuid(), gpu.text(SmiGpu.PCI_BUS_ID)));
            }
            groups.add(new DeviceGroup(VENDOR, TYPE, model, attributes(members.getFirst()), instances));
        });
        groups.addAll(migGroups.values());
        known = Set.copyOf(uuids);
        dcgmNames = Map.copyOf(names);
        return groups;
    }

    /** Nomad's group attributes; an unavailable value is left out (Nomad does the same). */
    private static Map<String, Attribute> attributes(SmiGpu gpu) {
        Map<String, Attribute> attributes = new LinkedHashMap<>();
        putInt(attributes, "memory", gpu.number(SmiGpu.MEMORY_TOTAL), "MiB");
        putInt(attributes, "power", gpu.number(SmiGpu.POWER_LIMIT), "W");
        putInt(attributes, "cores_clock", gpu.number(SmiGpu.CLOCK_SM), "MHz");
        putInt(attributes, "memory_clock", gpu.number(SmiGpu.CLOCK_MEMORY), "MHz");
        putString(attributes, "driver_version", gpu.text(SmiGpu.DRIVER_VERSION));
        putString(attributes, "display_state", gpu.text(SmiGpu.DISPLAY_MODE));
        putString(attributes, "persistence_mode", gpu.text(SmiGpu.PERSISTENCE_MODE));
        return attributes;
    }

    private static void putInt(Map<String, Attribute> attributes, String name, Long value, String unit) {
        if (value != null) {
            attributes.put(name, Attribute.ofInt(value, unit));
        }
    }

    private static void putString(Map<String, Attribute> attributes, String name, String value) {
        if (value != null) {
            attributes.put(name, Attribute.ofString(value));
        }
    }

    List<DeviceGroupStats> statsOnce() throws IOException, InterruptedException {
        List<SmiGpu> gpus = query();
        Map<String, List<dev.berth.device.DeviceProcess>> processes = processStats ? processes(gpus) : Map.of();
        java.time.Instant now = clock.instant();
        Map<String, Map<String, DeviceStats>> byModel = new LinkedHashMap<>();
        for (SmiGpu gpu : gpus) {
            if (gpu.uuid() == null || gpu.migEnabled()) {
                continue;
            }
            StatValue memory = fraction(gpu.number(SmiGpu.MEMORY_USED), gpu.number(SmiGpu.MEMORY_TOTAL), "MiB", "UsedMemory / TotalMemory");
            Map<String, StatValue> values = new LinkedHashMap<>();
            values.put("Power usage", fraction(gpu.number(SmiGpu.POWER_DRAW), gpu.number(SmiGpu.POWER_LIMIT), "W", "Power usage / Power limit"));
            values.put("GPU utilization", scalar(gpu.number(SmiGpu.UTIL_GPU), "%", "GPU utilization"));
            values.put("Memory utilization", scalar(gpu.number(SmiGpu.UTIL_MEMORY), "%", "Memory utilization"));
            values.put("Temperature", scalar(gpu.number(SmiGpu.TEMPERATURE), "C", "Temperature"));
            values.put("Memory state", memory);
            values.put("ECC L1 errors", scalar(gpu.number(SmiGpu.ECC_L1), "#", "ECC L1 errors"));
            values.put("ECC L2 errors", scalar(gpu.number(SmiGpu.ECC_L2), "#", "ECC L2 errors"));
            values.put("ECC memory errors", scalar(gpu.number(SmiGpu.ECC_MEMORY), "#", "ECC memory errors"));
            byModel.computeIfAbsent(gpu.model(), (k) -> new LinkedHashMap<>())
                    .put(gpu.uuid(), new DeviceStats(memory, StatObject.of(values), now, processes.getOrDefault(gpu.uuid(), List.of())));
        }
        List<DeviceGroupStats> groups = new ArrayList<>();
        byModel.forEach((model, stats) -> groups.add(DeviceGroupStats.of(new DeviceGroupKey(VENDOR, TYPE, model), stats)));
        return groups;
    }

    /** GPU UUID → its compute processes, with pmon's SM utilization when enabled (pmon names GPUs by index). */
    private Map<String, List<dev.berth.device.DeviceProcess>> processes(List<SmiGpu> gpus) throws IOException, InterruptedException {
        List<SmiProcesses.ComputeApp> apps;
        Map<SmiProcesses.PmonKey, SmiProcesses.PmonRow> utilization;
        try {
            apps = smi.computeApps();
            utilization = pmon ? smi.pmon() : Map.of();
        }
        catch (IllegalArgumentException ex) {
            throw new IOException(ex.getMessage(), ex);
        }
        Map<String, Long> indexOf = new java.util.HashMap<>();
        gpus.forEach((gpu) -> {
            if (gpu.index() != null) {
                indexOf.put(gpu.uuid(), gpu.index());
            }
        });
        Map<String, List<dev.berth.device.DeviceProcess>> result = new java.util.HashMap<>();
        for (SmiProcesses.ComputeApp app : apps) {
            Long index = indexOf.get(app.gpuUuid());
            SmiProcesses.PmonRow row = index == null ? null : utilization.get(new SmiProcesses.PmonKey(index, app.pid()));
            result.computeIfAbsent(app.gpuUuid(), (k) -> new ArrayList<>())
                    .add(new dev.berth.device.DeviceProcess(app.pid(), app.usedMemoryMib(), row == null ? null : row.smPercent()));
        }
        return result;
    }

    private static StatValue scalar(Long value, String unit, String desc) {
        return value == null ? StatValue.notAvailable(unit, desc) : StatValue.ofInt(value, unit, desc);
    }

    private static StatValue fraction(Long numerator, Long denominator, String unit, String desc) {
        return numerator == null || denominator == null ? StatValue.notAvailable(unit, desc)
                : StatValue.ofIntFraction(numerator, denominator, unit, desc);
    }
}
