package dev.berth.stats;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;
import oshi.hardware.GlobalMemory;
import oshi.software.os.OSFileStore;
import oshi.software.os.OperatingSystem;

import dev.berth.config.CpuClock;

/**
 * Reads the host through one shared OSHI {@link SystemInfo}, plus {@code /proc/meminfo} and {@code /proc/filesystems}
 * where OSHI does not expose what Nomad (gopsutil) reports: {@code MemFree}/{@code Buffers}/{@code Cached} for
 * {@code Used}/{@code Free}, and which file system types are backed by a device.
 */
public final class OshiHostStatsSource implements HostStatsSource {

    private final CentralProcessor processor;
    private final GlobalMemory memory;
    private final OperatingSystem os;
    private final Path meminfo;
    private final Set<String> deviceFileSystems;
    private volatile double totalComputeMhz = -1;
    /** The stores {@link #disks()} enumerated last; {@link #usage} takes inode counts from them (same tick) instead
     *  of enumerating every mount a second time. */
    private volatile List<OSFileStore> lastStores;

    public OshiHostStatsSource(SystemInfo systemInfo) {
        this(systemInfo, Path.of("/proc/meminfo"), Path.of("/proc/filesystems"));
    }

    OshiHostStatsSource(SystemInfo systemInfo, Path meminfo, Path filesystems) {
        this.processor = systemInfo.getHardware().getProcessor();
        this.memory = systemInfo.getHardware().getMemory();
        this.os = systemInfo.getOperatingSystem();
        this.meminfo = meminfo;
        this.deviceFileSystems = readDeviceFileSystems(filesystems);
    }

    @Override
    public long[][] cpuTicks() {
        return processor.getProcessorCpuLoadTicks();
    }

    @Override
    public double totalComputeMhz() {
        double total = totalComputeMhz;
        if (total < 0) {
            // The frequency does not change while we run; read it once.
            total = CpuClock.mhzPerCore(processor) * processor.getLogicalProcessorCount();
            totalComputeMhz = total;
        }
        return total;
    }

    @Override
    public HostMemoryStats memory() {
        try {
            return Meminfo.parse(Files.readString(meminfo)).toStats();
        } catch (IOException | RuntimeException notLinux) {
            // Without /proc/meminfo only total and available are known.
            long total = memory.getTotal();
            long available = memory.getAvailable();
            return new HostMemoryStats(total, available, total - available, available);
        }
    }

    @Override
    public List<DiskReading> disks() {
        List<DiskReading> readings = new ArrayList<>();
        List<OSFileStore> stores = os.getFileSystem().getFileStores(true);
        lastStores = stores;
        for (OSFileStore store : stores) {
            String device = store.getVolume();
            // gopsutil Partitions(all=false): only file systems backed by a device (not "nodev" in /proc/filesystems).
            if (device == null || device.equals("none") || !isDeviceBacked(store.getType())) {
                continue;
            }
            try {
                long total = store.getTotalSpace();
                if (total <= 0) {
                    readings.add(new DiskReading.Failed(store.getMount(), "statfs reported no size"));
                    continue;
                }
                readings.add(new DiskReading.Ok(HostDiskStats.of(device, store.getMount(), total, store.getFreeSpace(),
                        store.getUsableSpace(), store.getTotalInodes(), store.getFreeInodes())));
            } catch (RuntimeException e) {
                readings.add(new DiskReading.Failed(store.getMount(), e.toString()));
            }
        }
        return readings;
    }

    @Override
    public HostDiskStats usage(Path dir) throws IOException {
        Path existing = dir.toAbsolutePath().normalize();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent(); // the alloc dir may not exist before the first allocation
        }
        if (existing == null) {
            throw new IOException("no existing ancestor of " + dir);
        }
        FileStore store = Files.getFileStore(existing);
        long totalInodes = 0;
        long freeInodes = 0;
        String real = existing.toRealPath().toString();
        OSFileStore best = null;
        List<OSFileStore> stores = lastStores;
        for (OSFileStore candidate : stores != null ? stores : os.getFileSystem().getFileStores(true)) {
            String mount = candidate.getMount();
            if (isUnder(real, mount) && (best == null || mount.length() > best.getMount().length())) {
                best = candidate;
            }
        }
        if (best != null) {
            totalInodes = best.getTotalInodes();
            freeInodes = best.getFreeInodes();
        }
        return HostDiskStats.of("", "", store.getTotalSpace(), store.getUnallocatedSpace(), store.getUsableSpace(),
                totalInodes, freeInodes);
    }

    @Override
    public long uptimeSeconds() {
        return os.getSystemUptime();
    }

    boolean isDeviceBacked(String type) {
        return deviceFileSystems.isEmpty() || deviceFileSystems.contains(type);
    }

    private static boolean isUnder(String path, String mount) {
        if (mount == null || mount.isEmpty()) {
            return false;
        }
        return mount.equals("/") || path.equals(mount) || path.startsWith(mount.endsWith("/") ? mount : mount + "/");
    }

    /** Types listed in /proc/filesystems without "nodev"; empty (meaning: accept all) when unreadable. */
    static Set<String> readDeviceFileSystems(Path filesystems) {
        Set<String> types = new HashSet<>();
        try {
            for (String line : Files.readAllLines(filesystems)) {
                if (!line.startsWith("nodev") && !line.isBlank()) {
                    types.add(line.trim());
                }
            }
        } catch (IOException | RuntimeException notLinux) {
            return Set.of();
        }
        return Set.copyOf(types);
    }
}
