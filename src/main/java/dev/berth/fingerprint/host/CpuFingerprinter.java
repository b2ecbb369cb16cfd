package dev.berth.fingerprint.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import dev.berth.config.BerthProperties;
import dev.berth.config.CpuClock;
import dev.berth.fingerprint.FingerprintRequest;
import dev.berth.fingerprint.FingerprintResult;
import dev.berth.fingerprint.Fingerprinter;
import dev.berth.fingerprint.NodeResources;
import dev.berth.host.CoreSet;

/**
 * CPU model, core count and compute (MHz × cores), read through OSHI. The frequency is the maximum frequency when the
 * kernel exposes one (cpufreq), else the advertised frequency, else the highest current frequency (VMs without
 * cpufreq report only the latter, from {@code cpu MHz}).
 *
 * <p>Reservable cores (what tasks run on and may reserve, as Nomad's client finds them): the cores the agent itself may
 * run on ({@code Cpus_allowed_list} in {@code /proc/self/status}: its cpuset and affinity, e.g. a container limited
 * with {@code --cpuset-cpus}), narrowed to {@code berth.client.reservable-cores} when set. Usable compute is their MHz.
 */
@Component
class CpuFingerprinter implements Fingerprinter {

    private static final Logger log = LoggerFactory.getLogger(CpuFingerprinter.class);

    private final SystemInfo systemInfo;
    private final String configuredCores;
    private final Path procStatus;

    @Autowired
    CpuFingerprinter(SystemInfo systemInfo, BerthProperties props) {
        this(systemInfo, props.client().reservableCores(), Path.of("/proc/self/status"));
    }

    /**
     * @param configuredCores {@code berth.client.reservable-cores}, empty when unset
     * @param procStatus      the agent's {@code /proc/self/status}
     */
    CpuFingerprinter(SystemInfo systemInfo, String configuredCores, Path procStatus) {
        this.systemInfo = systemInfo;
        this.configuredCores = configuredCores;
        this.procStatus = procStatus;
    }

    @Override
    public String name() {
        return "cpu";
    }

    @Override
    public FingerprintResult fingerprint(FingerprintRequest request) {
        CentralProcessor processor = systemInfo.getHardware().getProcessor();
        int cores = processor.getLogicalProcessorCount();
        long mhz = frequencyMhz(processor);
        if (cores <= 0 || mhz <= 0) {
            throw new IllegalStateException("cannot detect CPU cores (" + cores + ") or frequency (" + mhz + " MHz)");
        }
        long totalCompute = mhz * cores;
        CoreSet online = CoreSet.of(processor.getLogicalProcessors().stream()
                .map(CentralProcessor.LogicalProcessor::getProcessorNumber).toList());
        CoreSet reservable = reservable(online);
        Map<String, String> attributes = new LinkedHashMap<>();
        String model = processor.getProcessorIdentifier().getName();
        if (model != null && !model.isBlank()) {
            attributes.put("cpu.modelname", model.trim());
        }
        attributes.put("cpu.frequency", Long.toString(mhz));
        attributes.put("cpu.numcores", Integer.toString(cores));
        attributes.put("cpu.reservablecores", Integer.toString(reservable.size()));
        attributes.put("cpu.totalcompute", Long.toString(totalCompute));
        long usableCompute = mhz * reservable.size();
        attributes.put("cpu.usablecompute", Long.toString(usableCompute));
        Map<Integer, List<Integer>> numa = new TreeMap<>();
        for (CentralProcessor.LogicalProcessor cpu : processor.getLogicalProcessors()) {
            numa.computeIfAbsent(cpu.getNumaNode(), n -> new ArrayList<>()).add(cpu.getProcessorNumber());
        }
        attributes.put("numa.node.count", Integer.toString(numa.size()));
        numa.forEach((node, ids) -> attributes.put("numa.node" + node + ".cores", idSet(ids)));
        return new FingerprintResult(attributes, new NodeResources.Cpu(usableCompute, cores, reservable.ids()), null, null, null);
    }

    // The agent's allowed cores (all online ones when /proc does not say), narrowed to the configured ones.
    private CoreSet reservable(CoreSet online) {
        CoreSet allowed = online;
        try {
            allowed = Files.readAllLines(procStatus).stream().filter(l -> l.startsWith("Cpus_allowed_list:"))
                    .map(l -> CoreSet.parse(l.substring(l.indexOf(':') + 1))).findFirst().orElse(online);
        } catch (IOException e) {
            log.debug("cannot read {} ({}); every online core is reservable", procStatus, e.toString());
        }
        if (configuredCores.isEmpty()) {
            return allowed;
        }
        CoreSet configured = CoreSet.parse(configuredCores);
        if (!allowed.containsAll(configured)) {
            throw new IllegalStateException("berth.client.reservable-cores " + configured + " names cores the agent may not run on: "
                    + configured.minus(allowed) + " (it may run on " + allowed + ")");
        }
        return configured;
    }

    /** Nomad's idset notation: sorted, ranges collapsed, e.g. {@code 0-3,8,10-11}. */
    static String idSet(List<Integer> ids) {
        return CoreSet.of(ids).toString();
    }

    static long frequencyMhz(CentralProcessor processor) {
        double mhz = CpuClock.mhzPerCore(processor);
        return mhz > 0 ? Math.round(mhz) : -1;
    }
}
