package dev.berth.stats;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Stands in for the operating system: returns what the test set, counts reads, can be told to fail. */
final class ScriptedHostStatsSource implements HostStatsSource {

    volatile long[][] ticks = {{100, 0, 50, 800, 10, 0, 0, 0}, {200, 0, 100, 700, 0, 0, 0, 0}};
    volatile double totalCompute = 4000;
    volatile HostMemoryStats memory = new HostMemoryStats(8_000, 6_000, 1_500, 5_000);
    volatile List<DiskReading> disks = List.of(new DiskReading.Ok(HostDiskStats.of("/dev/vda1", "/", 1000, 400, 300, 100, 60)));
    volatile HostDiskStats allocDir = HostDiskStats.of("", "", 1000, 400, 300, 100, 60);
    volatile long uptime = 4242;
    volatile RuntimeException failTicks;
    volatile IOException failAllocDir;
    final AtomicInteger tickReads = new AtomicInteger();
    final List<Path> usageCalls = new ArrayList<>();

    @Override
    public long[][] cpuTicks() {
        tickReads.incrementAndGet();
        if (failTicks != null) {
            throw failTicks;
        }
        return ticks;
    }

    @Override
    public double totalComputeMhz() {
        return totalCompute;
    }

    @Override
    public HostMemoryStats memory() {
        return memory;
    }

    @Override
    public List<DiskReading> disks() {
        return disks;
    }

    @Override
    public synchronized HostDiskStats usage(Path dir) throws IOException {
        usageCalls.add(dir);
        if (failAllocDir != null) {
            throw failAllocDir;
        }
        return allocDir;
    }

    @Override
    public long uptimeSeconds() {
        return uptime;
    }
}
