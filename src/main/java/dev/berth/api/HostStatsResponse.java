package dev.berth.api;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;

import dev.berth.device.DeviceGroupStats;
import dev.berth.stats.HostCpuStats;
import dev.berth.stats.HostDiskStats;
import dev.berth.stats.HostMemoryStats;
import dev.berth.stats.HostStats;

/**
 * Nomad's {@code HostStats} wire shape ({@code GET /v1/client/stats}), field for field and in Nomad's order.
 * {@code DeviceStats} holds every device group's latest statistics, {@code []} when there are none (as Nomad with no
 * plugins).
 */
record HostStatsResponse(
        @JsonProperty("Memory") Memory memory,
        @JsonProperty("CPU") List<Cpu> cpu,
        @JsonProperty("DiskStats") List<Disk> diskStats,
        @JsonProperty("AllocDirStats") Disk allocDirStats,
        @JsonProperty("DeviceStats") List<DeviceGroupStats> deviceStats,
        @JsonProperty("Uptime") long uptime,
        @JsonProperty("Timestamp") long timestamp,
        @JsonProperty("CPUTicksConsumed") double cpuTicksConsumed) {

    static HostStatsResponse from(HostStats stats) {
        return from(stats, List.of());
    }

    static HostStatsResponse from(HostStats stats, List<DeviceGroupStats> deviceStats) {
        return new HostStatsResponse(Memory.from(stats.memory()), stats.cpus().stream().map(Cpu::from).toList(),
                stats.disks().stream().map(Disk::from).toList(), Disk.from(stats.allocDir()), List.copyOf(deviceStats),
                stats.uptimeSeconds(), stats.timestampNanos(), stats.cpuTicksConsumed());
    }

    record Memory(@JsonProperty("Total") long total, @JsonProperty("Available") long available,
                  @JsonProperty("Used") long used, @JsonProperty("Free") long free) {
        static Memory from(HostMemoryStats m) {
            return new Memory(m.total(), m.available(), m.used(), m.free());
        }
    }

    record Cpu(@JsonProperty("CPU") String cpu, @JsonProperty("User") double user, @JsonProperty("System") double system,
               @JsonProperty("Idle") double idle, @JsonProperty("TotalPercent") double totalPercent,
               @JsonProperty("TotalTicks") double totalTicks) {
        static Cpu from(HostCpuStats c) {
            return new Cpu(c.cpu(), c.user(), c.system(), c.idle(), c.totalPercent(), c.totalTicks());
        }
    }

    record Disk(@JsonProperty("Device") String device, @JsonProperty("Mountpoint") String mountpoint,
                @JsonProperty("Size") long size, @JsonProperty("Used") long used,
                @JsonProperty("Available") long available, @JsonProperty("UsedPercent") double usedPercent,
                @JsonProperty("InodesUsedPercent") double inodesUsedPercent) {
        static Disk from(HostDiskStats d) {
            return new Disk(d.device(), d.mountpoint(), d.size(), d.used(), d.available(), d.usedPercent(),
                    d.inodesUsedPercent());
        }
    }
}
