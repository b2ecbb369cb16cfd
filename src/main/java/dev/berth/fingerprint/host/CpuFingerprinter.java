package dev.berth.fingerprint.host;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;

import org.springframework.stereotype.Component;

import dev.berth.config.CpuClock;
import dev.berth.fingerprint.FingerprintRequest;
import dev.berth.fingerprint.FingerprintResult;
import dev.berth.fingerprint.Fingerprinter;
import dev.berth.fingerprint.NodeResources;

/**
 * CPU model, core count and compute (MHz × cores), read through OSHI. The frequency is the maximum frequency when the
 * kernel exposes one (cpufreq), else the advertised frequency, else the highest current frequency (VMs without
 * cpufreq report only the latter, from {@code cpu MHz}).
 */
@Component
class CpuFingerprinter implements Fingerprinter {

    private static final long HZ_PER_MHZ = 1_000_000L;

    private final SystemInfo systemInfo;

    CpuFingerprinter(SystemInfo systemInfo) {
        this.systemInfo = systemInfo;
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
        List<Integer> coreIds = processor.getLogicalProcessors().stream()
                .map(CentralProcessor.LogicalProcessor::getProcessorNumber)
                .distinct().sorted().toList();
        Map<String, String> attributes = new LinkedHashMap<>();
        String model = processor.getProcessorIdentifier().getName();
        if (model != null && !model.isBlank()) {
            attributes.put("cpu.modelname", model.trim());
        }
        attributes.put("cpu.frequency", Long.toString(mhz));
        attributes.put("cpu.numcores", Integer.toString(cores));
        attributes.put("cpu.reservablecores", Integer.toString(coreIds.size()));
        attributes.put("cpu.totalcompute", Long.toString(totalCompute));
        // Nothing is reserved for the agent itself (yet), so all compute is usable.
        attributes.put("cpu.usablecompute", Long.toString(totalCompute));
        Map<Integer, List<Integer>> numa = new TreeMap<>();
        for (CentralProcessor.LogicalProcessor cpu : processor.getLogicalProcessors()) {
            numa.computeIfAbsent(cpu.getNumaNode(), n -> new ArrayList<>()).add(cpu.getProcessorNumber());
        }
        attributes.put("numa.node.count", Integer.toString(numa.size()));
        numa.forEach((node, ids) -> attributes.put("numa.node" + node + ".cores", idSet(ids)));
        return new FingerprintResult(attributes, new NodeResources.Cpu(totalCompute, cores, coreIds), null, null, null);
    }

    /** Nomad's idset notation: sorted, ranges collapsed, e.g. {@code 0-3,8,10-11}. */
    static String idSet(List<Integer> ids) {
        List<Integer> sorted = ids.stream().distinct().sorted().toList();
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < sorted.size()) {
            int start = sorted.get(i);
            int end = start;
            while (i + 1 < sorted.size() && sorted.get(i + 1) == end + 1) {
                end = sorted.get(++i);
            }
            if (!out.isEmpty()) {
                out.append(',');
            }
            out.append(start == end ? Integer.toString(start) : start + "-" + end);
            i++;
        }
        return out.toString();
    }

    static long frequencyMhz(CentralProcessor processor) {
        double mhz = CpuClock.mhzPerCore(processor);
        return mhz > 0 ? Math.round(mhz) : -1;
    }
}
