package dev.berth.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import oshi.hardware.CentralProcessor;

/**
 * The CPU clock per core in MHz, the one figure behind the node's compute ({@code cpu.totalcompute}), admission and
 * every {@code TotalTicks}: OSHI's max frequency, else the vendor frequency, else the highest current frequency, else
 * {@code cpu MHz} from {@code /proc/cpuinfo} (VMs without cpufreq, like the build host, report only that).
 */
public final class CpuClock {

    private static final Path CPUINFO = Path.of("/proc/cpuinfo");

    private CpuClock() {
    }

    /** MHz per core, or 0 when no source reports a clock. */
    public static double mhzPerCore(CentralProcessor processor) {
        long hz = processor.getMaxFreq();
        if (hz <= 0) {
            hz = processor.getProcessorIdentifier().getVendorFreq();
        }
        if (hz <= 0) {
            hz = Arrays.stream(processor.getCurrentFreq()).max().orElse(-1);
        }
        return hz > 0 ? hz / 1e6 : cpuinfoMhz(CPUINFO);
    }

    /** The first {@code cpu MHz} line of a {@code /proc/cpuinfo}-format file; 0 when absent or unreadable. */
    static double cpuinfoMhz(Path cpuinfo) {
        try (var lines = Files.lines(cpuinfo)) {
            return lines.filter(l -> l.startsWith("cpu MHz")).map(l -> l.substring(l.indexOf(':') + 1).strip())
                    .mapToDouble(Double::parseDouble).findFirst().orElse(0);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
