package dev.berth.fingerprint.host;

import java.util.Map;

import oshi.SystemInfo;

import org.springframework.stereotype.Component;

import dev.berth.fingerprint.FingerprintRequest;
import dev.berth.fingerprint.FingerprintResult;
import dev.berth.fingerprint.Fingerprinter;
import dev.berth.fingerprint.NodeResources;

/** {@code memory.totalbytes} and {@code Memory.MemoryMB}: the host's physical memory (OSHI, i.e. MemTotal). */
@Component
class MemoryFingerprinter implements Fingerprinter {

    private static final long BYTES_PER_MIB = 1024L * 1024L;

    private final SystemInfo systemInfo;

    MemoryFingerprinter(SystemInfo systemInfo) {
        this.systemInfo = systemInfo;
    }

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public FingerprintResult fingerprint(FingerprintRequest request) {
        long total = systemInfo.getHardware().getMemory().getTotal();
        if (total <= 0) {
            throw new IllegalStateException("cannot detect total memory");
        }
        return new FingerprintResult(Map.of("memory.totalbytes", Long.toString(total)), null,
                new NodeResources.Memory(total / BYTES_PER_MIB), null, null);
    }
}
