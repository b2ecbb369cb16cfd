package dev.berth.stats;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import oshi.SystemInfo;

import static org.assertj.core.api.Assertions.assertThat;

/** Reads this machine for real (Linux): the values must agree with the kernel's own files. */
@EnabledOnOs(OS.LINUX)
class OshiHostStatsSourceTest {

    private static OshiHostStatsSource source;

    @BeforeAll
    static void createSource() {
        source = new OshiHostStatsSource(new SystemInfo());
    }

    @Test
    void cpuTicksHaveOneRowPerLogicalCoreInTickTypeOrder() {
        long[][] ticks = source.cpuTicks();

        assertThat(ticks.length).isEqualTo(Runtime.getRuntime().availableProcessors());
        for (long[] core : ticks) {
            assertThat(core).hasSize(8);
            assertThat(java.util.Arrays.stream(core).min().orElseThrow()).isNotNegative();
            assertThat(core[HostCpuStatsCalculator.IDLE] + core[HostCpuStatsCalculator.USER]).isPositive();
        }
    }

    @Test
    void memoryMatchesProcMeminfo() throws Exception {
        String meminfo = Files.readString(Path.of("/proc/meminfo"));
        long memTotalKib = Long.parseLong(meminfo.lines().filter(l -> l.startsWith("MemTotal:")).findFirst().orElseThrow()
                .replaceAll("\\D", ""));

        HostMemoryStats memory = source.memory();
        assertThat(memory.total()).isEqualTo(memTotalKib * 1024);
        assertThat(memory.available()).isPositive().isLessThanOrEqualTo(memory.total());
        assertThat(memory.free()).isPositive();
        assertThat(memory.used() + memory.free()).isLessThanOrEqualTo(memory.total());
    }

    @Test
    void disksAreDeviceBackedPartitionsOnly() {
        List<HostStatsSource.DiskReading> readings = source.disks();

        List<HostDiskStats> ok = readings.stream().filter(HostStatsSource.DiskReading.Ok.class::isInstance)
                .map(r -> ((HostStatsSource.DiskReading.Ok) r).stats()).toList();
        assertThat(ok).allSatisfy(disk -> {
            assertThat(disk.device()).isNotBlank();
            assertThat(disk.size()).isPositive();
            assertThat(disk.usedPercent()).isBetween(0.0, 100.0);
            assertThat(disk.inodesUsedPercent()).isBetween(0.0, 100.0);
        });
        // pseudo and memory file systems are "nodev" in /proc/filesystems, so gopsutil (and we) leave them out
        assertThat(ok).extracting(HostDiskStats::mountpoint).doesNotContain("/proc", "/sys", "/dev/shm", "/run", "/dev");
    }

    @Test
    void allocDirUsageWorksBeforeTheDirExistsAndLeavesDeviceEmpty(@TempDir Path tmp) throws Exception {
        HostDiskStats usage = source.usage(tmp.resolve("not/yet/created"));

        assertThat(usage.device()).isEmpty();
        assertThat(usage.mountpoint()).isEmpty();
        assertThat(usage.size()).isPositive();
        assertThat(usage.used() + usage.available()).isLessThanOrEqualTo(usage.size());
        assertThat(usage.usedPercent()).isBetween(0.0, 100.0);
    }

    @Test
    void uptimeAndComputeAreRead() {
        assertThat(source.uptimeSeconds()).isPositive();
        double compute = source.totalComputeMhz();
        assertThat(compute).isNotNegative();
        assertThat(source.totalComputeMhz()).isEqualTo(compute); // read once, then fixed
    }

    @Test
    void deviceFileSystemsAreTheOnesWithoutNodev(@TempDir Path tmp) throws Exception {
        Path filesystems = tmp.resolve("filesystems");
        Files.writeString(filesystems, "nodev\tsysfs\nnodev\ttmpfs\n\text4\n\txfs\nnodev\toverlay\n");

        assertThat(OshiHostStatsSource.readDeviceFileSystems(filesystems)).containsExactlyInAnyOrder("ext4", "xfs");
        assertThat(OshiHostStatsSource.readDeviceFileSystems(tmp.resolve("missing"))).isEmpty();
    }

    @Test
    void onlyDeviceBackedMountsDecideWhetherPartitionsAreEnumeratedAgain(@TempDir Path tmp) throws Exception {
        Path filesystems = tmp.resolve("filesystems");
        Files.writeString(filesystems, "nodev\tsysfs\nnodev\ttmpfs\n\text4\n\txfs\n");
        OshiHostStatsSource fromFiles = new OshiHostStatsSource(new SystemInfo(), Path.of("/proc/meminfo"), filesystems);
        Path table = tmp.resolve("mounts");
        String root = "/dev/vda / ext4 rw,relatime 0 0";
        String data = "/dev/vdb /data xfs rw 0 0";
        Files.writeString(table, root + "\nsysfs /sys sysfs rw 0 0\n" + data + "\n"
                + "tmpfs /var/lib/berth/alloc/a1/t/secrets tmpfs rw,size=1024k 0 0\nnone /mnt ext4 rw 0 0\n");

        assertThat(fromFiles.deviceMounts(table)).containsExactly(root, data);
        Files.writeString(table, root + "\n" + data + "\ntmpfs /var/lib/berth/alloc/a2/t/private tmpfs rw 0 0\n");
        assertThat(fromFiles.deviceMounts(table)).containsExactly(root, data); // a task's mounts: nothing to enumerate
        assertThat(fromFiles.deviceMounts(tmp.resolve("missing"))).isNull();
    }
}
