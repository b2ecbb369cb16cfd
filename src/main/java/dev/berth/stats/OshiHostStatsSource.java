package dev.berth.stats;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.sun.jna.Platform;

import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;
import oshi.hardware.GlobalMemory;
import oshi.software.os.OSFileStore;
import oshi.software.os.OperatingSystem;

import dev.berth.config.CpuClock;
import dev.berth.host.LibC;

/**
 * Reads the host through one shared OSHI {@link SystemInfo}, plus {@code /proc/meminfo} and {@code /proc/filesystems}
 * where OSHI does not expose what Nomad (gopsutil) reports: {@code MemFree}/{@code Buffers}/{@code Cached} for
 * {@code Used}/{@code Free}, and which file system types are backed by a device. Partitions are enumerated only when
 * the mount table changes ({@link MountTableWatch}), at most every {@link #REFRESH_AFTER}; a tick costs one {@code statvfs} per reported partition plus one
 * for the alloc dir, whatever the number of task mounts.
 *
 * <p>OSHI is used once (processor, memory size, the first enumeration of partitions); the per-tick reads of CPU
 * ticks, memory and uptime go through {@link ProcHostFiles} (kept-open files, bytes parsed in place, the same figures
 * as OSHI's), and {@code statvfs} through {@link LibC.Direct} (no JNA {@code Structure} per call).
 */
public final class OshiHostStatsSource implements HostStatsSource {

    private final CentralProcessor processor;
    private final GlobalMemory memory;
    private final OperatingSystem os;
    private final Set<String> deviceFileSystems;
    private volatile double totalComputeMhz = -1;
    private final MountTableWatch mountTable;
    /** The per-tick reads of /proc/stat, /proc/meminfo and /proc/uptime; guarded by itself. */
    private final ProcHostFiles procFiles;
    /** Whether {@link #procFiles} stands in for OSHI's CPU ticks and uptime (OSHI's JNA Linux classes only). */
    private final boolean leanCpuTicks;
    private final boolean leanUptime;
    private final int logicalProcessors;
    private final long userHz;
    /** The last {@link #usage} directory and its C string, so a tick neither normalises nor encodes it again. */
    private Path usageDir;
    private byte[] usageCPath;
    /** A partition mounted or unmounted shows up in the host stats within this time. */
    static final Duration REFRESH_AFTER = Duration.ofSeconds(30);
    /** The partitions {@link #disks()} reports, as of the last mount-table change; null before the first tick. */
    private volatile List<Partition> partitions;
    /** Only the collector's tick (one thread at a time) touches these three. */
    private boolean mountsChanged;
    private long enumeratedAtNanos;
    /** The device-backed lines of the mount table at the last enumeration; null when it could not be read. */
    private List<String> enumeratedDeviceMounts;
    private final Path mounts;

    public OshiHostStatsSource(SystemInfo systemInfo) {
        this(systemInfo, Path.of("/proc/meminfo"), Path.of("/proc/filesystems"));
    }

    OshiHostStatsSource(SystemInfo systemInfo, Path meminfo, Path filesystems) {
        this.processor = systemInfo.getHardware().getProcessor();
        this.memory = systemInfo.getHardware().getMemory();
        this.os = systemInfo.getOperatingSystem();
        this.deviceFileSystems = readDeviceFileSystems(filesystems);
        this.mounts = Path.of("/proc/self/mounts");
        this.mountTable = MountTableWatch.open(mounts);
        this.procFiles = new ProcHostFiles("/proc/stat", meminfo.toString(), "/proc/uptime");
        this.leanCpuTicks = "oshi.hardware.platform.linux.LinuxCentralProcessorJNA".equals(processor.getClass().getName());
        this.leanUptime = "oshi.software.os.linux.LinuxOperatingSystemJNA".equals(os.getClass().getName());
        this.logicalProcessors = processor.getLogicalProcessorCount();
        this.userHz = leanCpuTicks ? oshi.software.os.linux.LinuxOperatingSystemJNA.hz() : 0;
    }

    /** Whether CPU ticks and uptime come from {@link ProcHostFiles} (OSHI's JNA Linux classes are in use). */
    boolean leanReads() {
        return leanCpuTicks && userHz > 0 && leanUptime;
    }

    @Override
    public long[][] cpuTicks() {
        if (leanCpuTicks && userHz > 0) {
            synchronized (procFiles) {
                try {
                    return procFiles.cpuTicks(logicalProcessors, userHz);
                } catch (IOException unreadable) {
                    // OSHI's own read below reports what it makes of it (all zero)
                }
            }
        }
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
            synchronized (procFiles) {
                return procFiles.meminfo().toStats();
            }
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
        for (Partition partition : partitions()) {
            try {
                Space space = statfs(partition.cPath(), partition.mount());
                if (space == null) {
                    readings.add(new DiskReading.Failed(partition.mount(), "statfs failed"));
                } else if (space.total() <= 0) {
                    readings.add(new DiskReading.Failed(partition.mount(), "statfs reported no size"));
                } else {
                    readings.add(new DiskReading.Ok(HostDiskStats.of(partition.device(), partition.mount(), space.total(),
                            space.free(), space.usable(), space.totalInodes(), space.freeInodes())));
                }
            } catch (RuntimeException e) {
                readings.add(new DiskReading.Failed(partition.mount(), e.toString()));
            }
        }
        return readings;
    }

    /**
     * The device-backed partitions, enumerated through OSHI (every mount, a {@code statvfs} each) only when a
     * device-backed line of the mount table changed: tasks add and remove tmpfs mounts, and a host with a thousand
     * running tasks has two thousand of them, none of which is reported. A change of the mount table is looked at at
     * most once per {@link #REFRESH_AFTER} (where mounts churn, tasks starting and stopping all the time), and costs one
     * read of the table; OSHI's enumeration runs only when that read shows a device-backed mount came, went or moved.
     */
    private List<Partition> partitions() {
        List<Partition> known = partitions;
        if (mountTable.changed()) {
            mountsChanged = true;
        }
        if (known != null && (!mountsChanged || System.nanoTime() - enumeratedAtNanos < REFRESH_AFTER.toNanos())) {
            return known;
        }
        mountsChanged = false;
        enumeratedAtNanos = System.nanoTime();
        List<String> deviceMounts = deviceMounts(mounts);
        if (known != null && deviceMounts != null && deviceMounts.equals(enumeratedDeviceMounts)) {
            return known; // only mounts that are never reported (tmpfs of tasks, ...) came or went
        }
        enumeratedDeviceMounts = deviceMounts;
        List<Partition> found = new ArrayList<>();
        for (OSFileStore store : os.getFileSystem().getFileStores(true)) {
            String device = store.getVolume();
            // gopsutil Partitions(all=false): only file systems backed by a device (not "nodev" in /proc/filesystems).
            if (device != null && !device.equals("none") && isDeviceBacked(store.getType())) {
                found.add(new Partition(device, store.getMount(), LibC.Direct.cString(store.getMount())));
            }
        }
        partitions = List.copyOf(found);
        return partitions;
    }

    /**
     * The lines of a mount table ({@code /proc/self/mounts} format) whose file system is backed by a device and whose
     * source is not {@code none}: what {@link #partitions()} can report. Null when the table cannot be read.
     */
    List<String> deviceMounts(Path table) {
        List<String> lines = new ArrayList<>();
        try (java.io.BufferedReader reader = Files.newBufferedReader(table, java.nio.charset.StandardCharsets.ISO_8859_1)) {
            String line;
            while ((line = reader.readLine()) != null) {
                int source = line.indexOf(' ');
                int mount = source < 0 ? -1 : line.indexOf(' ', source + 1);
                int type = mount < 0 ? -1 : line.indexOf(' ', mount + 1);
                if (type < 0 || line.startsWith("none ")) {
                    continue;
                }
                if (isDeviceBacked(line.substring(mount + 1, type))) {
                    lines.add(line);
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
        return lines;
    }

    @Override
    public HostDiskStats usage(Path dir) throws IOException {
        byte[] cPath = usageCPath(dir);
        if (LibC.Direct.AVAILABLE) {
            // the directory exists once the first allocation ran: one statvfs, no walk up with Files.exists
            long[] vfs = new long[LibC.Direct.STATVFS_LONGS];
            if (LibC.Direct.statfs(cPath, vfs)) {
                Space space = space(vfs);
                return HostDiskStats.of("", "", space.total(), space.free(), space.usable(), space.totalInodes(),
                        space.freeInodes());
            }
        }
        Path existing = dir.toAbsolutePath().normalize();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent(); // the alloc dir may not exist before the first allocation
        }
        if (existing == null) {
            throw new IOException("no existing ancestor of " + dir);
        }
        // statvfs of the directory describes the file system holding it: space and inodes in one call
        Space space = statfs(LibC.Direct.cString(existing.toString()), existing.toString());
        if (space != null) {
            return HostDiskStats.of("", "", space.total(), space.free(), space.usable(), space.totalInodes(),
                    space.freeInodes());
        }
        FileStore store = Files.getFileStore(existing);
        return HostDiskStats.of("", "", store.getTotalSpace(), store.getUnallocatedSpace(), store.getUsableSpace(), 0, 0);
    }

    private synchronized byte[] usageCPath(Path dir) {
        if (dir != usageDir) {
            usageCPath = LibC.Direct.cString(dir.toAbsolutePath().normalize().toString());
            usageDir = dir;
        }
        return usageCPath;
    }

    @Override
    public long uptimeSeconds() {
        if (leanUptime) {
            synchronized (procFiles) {
                try {
                    return procFiles.uptimeSeconds();
                } catch (IOException unreadable) {
                    // OSHI's own read below reports what it makes of it (0)
                }
            }
        }
        return os.getSystemUptime();
    }

    /**
     * {@code statvfs(2)} of {@code path} ({@code cPath}: the same as a C string), computed as OSHI does; null when it
     * fails or libc is not reachable.
     */
    private static Space statfs(byte[] cPath, String path) {
        if (LibC.Direct.AVAILABLE) {
            long[] vfs = new long[LibC.Direct.STATVFS_LONGS];
            return LibC.Direct.statfs(cPath, vfs) ? space(vfs) : null;
        }
        if (!Platform.isLinux()) {
            return null;
        }
        try {
            // 32-bit Linux: OSHI's own binding (jna-platform), whose Structure lays the fields out per platform
            com.sun.jna.platform.linux.LibC.Statvfs vfs = new com.sun.jna.platform.linux.LibC.Statvfs();
            if (com.sun.jna.platform.linux.LibC.INSTANCE.statvfs(path, vfs) != 0) {
                return null;
            }
            long fragment = vfs.f_frsize.longValue();
            return new Space(vfs.f_blocks.longValue() * fragment, vfs.f_bfree.longValue() * fragment,
                    vfs.f_bavail.longValue() * fragment, vfs.f_files.longValue(), vfs.f_ffree.longValue());
        } catch (LinkageError | RuntimeException unavailable) {
            return null;
        }
    }

    private static Space space(long[] vfs) {
        long fragment = vfs[LibC.Direct.F_FRSIZE];
        return new Space(vfs[LibC.Direct.F_BLOCKS] * fragment, vfs[LibC.Direct.F_BFREE] * fragment,
                vfs[LibC.Direct.F_BAVAIL] * fragment, vfs[LibC.Direct.F_FILES], vfs[LibC.Direct.F_FFREE]);
    }

    private record Partition(String device, String mount, byte[] cPath) {
    }

    private record Space(long total, long free, long usable, long totalInodes, long freeInodes) {
    }

    boolean isDeviceBacked(String type) {
        return deviceFileSystems.isEmpty() || deviceFileSystems.contains(type);
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
