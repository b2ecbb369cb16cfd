package dev.berth.stats;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The cgroup readers against recorded files: v1 from this host, v2 from a 6.x kernel layout. */
class CgroupStatsReadersTest {

    private static final DescriptorBudget BUDGET = DescriptorBudget.ofProcessLimit();

    @Test
    void v1ReadsEveryNomadFieldPlusWorkingSet() throws IOException {
        Path dir = fixture("/cgroupv1/task");
        TaskRawSample sample = new CgroupV1StatsReader(Map.of("memory", dir, "cpu", dir, "cpuacct", dir), BUDGET).read();

        TaskMemoryStats memory = sample.memory();
        assertThat(memory.usage()).isEqualTo(385024);
        assertThat(memory.maxUsage()).isEqualTo(68145152);
        assertThat(memory.rss()).isEqualTo(147456);
        assertThat(memory.cache()).isZero();
        assertThat(memory.swap()).isZero(); // total_swap: swap alone (Nomad's memsw figure, memory + swap, would be 385024)
        assertThat(memory.kernelUsage()).isEqualTo(102400);
        assertThat(memory.kernelMaxUsage()).isEqualTo(405504);
        assertThat(memory.workingSet()).isEqualTo(385024); // no inactive_file
        assertThat(memory.measured()).containsExactly("RSS", "Cache", "Swap", "Mapped File", "Usage", "Max Usage", "Kernel Usage",
                "Kernel Max Usage");
        assertThat(memory.isMeasured(TaskMemoryField.WORKING_SET)).isTrue();

        TaskCpuTimes cpu = sample.cpu();
        assertThat(cpu.totalNs()).isEqualTo(146534557);
        assertThat(cpu.userNs()).isEqualTo(130_000_000L);
        assertThat(cpu.systemNs()).isEqualTo(10_000_000L);
        assertThat(cpu.throttledPeriods()).isZero();
        assertThat(cpu.fields()).containsExactlyInAnyOrder(TaskCpuField.values());
        assertThat(sample.pids()).isEmpty();
    }

    @Test
    void v1WithoutOptionalFilesMeasuresOnlyWhatExists(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        java.nio.file.Files.writeString(dir.resolve("memory.usage_in_bytes"), "1000\n");
        java.nio.file.Files.writeString(dir.resolve("memory.stat"), "cache 10\nrss 20\ninactive_file 300\n");

        TaskRawSample sample = new CgroupV1StatsReader(Map.of("memory", dir), BUDGET).read();

        assertThat(sample.memory().measured()).containsExactly("RSS", "Cache", "Usage");
        assertThat(sample.memory().workingSet()).isEqualTo(700);
        assertThat(sample.cpu().fields()).isEmpty();
    }

    /** Swap is memory.stat's total_swap, else its local swap; without swap accounting the kernel writes neither. */
    @Test
    void v1SwapIsTotalSwapAloneAndUnmeasuredWithoutSwapAccounting(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        java.nio.file.Files.writeString(dir.resolve("memory.usage_in_bytes"), "100000\n");
        java.nio.file.Files.writeString(dir.resolve("memory.memsw.usage_in_bytes"), "112288\n"); // memory + swap: not read
        java.nio.file.Files.writeString(dir.resolve("memory.stat"), "rss 20\nswap 4096\ntotal_rss 30\ntotal_swap 12288\n");
        assertThat(new CgroupV1StatsReader(Map.of("memory", dir), BUDGET).read().memory().swap()).isEqualTo(12288);

        java.nio.file.Files.writeString(dir.resolve("memory.stat"), "rss 20\nswap 4096\n");
        assertThat(new CgroupV1StatsReader(Map.of("memory", dir), BUDGET).read().memory().swap()).isEqualTo(4096);

        java.nio.file.Files.writeString(dir.resolve("memory.stat"), "rss 20\ntotal_rss 30\n");
        TaskMemoryStats unaccounted = new CgroupV1StatsReader(Map.of("memory", dir), BUDGET).read().memory();
        assertThat(unaccounted.isMeasured(TaskMemoryField.SWAP)).isFalse();
        assertThat(unaccounted.measured()).containsExactly("RSS", "Usage");
    }

    @Test
    void v1MemoryStatReadAgainAfterItsLinesMovedGivesWhatAFreshReaderGives(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        java.nio.file.Files.writeString(dir.resolve("memory.usage_in_bytes"), "900000\n");
        CgroupV1StatsReader kept = new CgroupV1StatsReader(Map.of("memory", dir), BUDGET);
        // the local values grow and shrink by many digits (the hierarchical lines move by more than a line either way),
        // then the hierarchical lines go: every read must give what a reader without any history gives
        String[] locals = {"1", "123456789012", "7", "98765432109876", "5"};
        for (int round = 0; round < locals.length + 1; round++) {
            boolean totals = round < locals.length;
            String local = locals[Math.min(round, locals.length - 1)];
            StringBuilder stat = new StringBuilder();
            for (String key : new String[] {"cache", "rss", "rss_huge", "shmem", "mapped_file", "dirty", "inactive_file"}) {
                stat.append(key).append(' ').append(local).append(key.length()).append('\n');
            }
            stat.append("hierarchical_memory_limit 9223372036854771712\n");
            if (totals) {
                for (String key : new String[] {"total_cache", "total_rss", "total_mapped_file", "total_inactive_file"}) {
                    stat.append(key).append(' ').append(round + 1).append(key.length()).append('\n');
                }
            }
            java.nio.file.Files.writeString(dir.resolve("memory.stat"), stat);

            TaskMemoryStats read = kept.read().memory();
            TaskMemoryStats fresh = new CgroupV1StatsReader(Map.of("memory", dir), BUDGET).read().memory();

            assertThat(read).as("round %d", round).usingRecursiveComparison().isEqualTo(fresh);
            assertThat(read.rss()).isEqualTo(Long.parseLong(totals ? (round + 1) + "9" : local + "3"));
        }
    }

    @Test
    void v1GivesItsPreviousSampleUntilAFigureMovesAndThenWhatAFreshReaderGives(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        String[] files = copyFixture("/cgroupv1/task", dir);
        Map<String, Path> dirs = Map.of("memory", dir, "cpu", dir, "cpuacct", dir);
        CgroupV1StatsReader kept = new CgroupV1StatsReader(dirs, BUDGET);
        TaskRawSample previous = kept.read();
        assertThat(kept.read()).isSameAs(previous);
        Path cpuStat = dir.resolve("cpu.stat");
        String stat = java.nio.file.Files.readString(cpuStat);
        java.nio.file.Files.writeString(cpuStat, stat.replace("nr_periods 0", "nr_periods 12"));
        assertThat(kept.read()).as("only a figure it does not report moved").isSameAs(previous);
        java.nio.file.Files.writeString(cpuStat, stat);

        eachReportedFigureMoves(kept, () -> new CgroupV1StatsReader(dirs, BUDGET), dir, files,
                Map.of("memory.stat", "total_rss ", "cpu.stat", "nr_throttled ")); // not nr_periods, nor a local key the totals hide
    }

    @Test
    void v2MapsAnonFileAndReportsSwapAlone() throws IOException {
        TaskRawSample sample = new CgroupV2StatsReader(fixture("/cgroupv2/task"), BUDGET).read();

        TaskMemoryStats memory = sample.memory();
        assertThat(memory.usage()).isEqualTo(287965184);
        assertThat(memory.maxUsage()).isEqualTo(301989888);
        assertThat(memory.rss()).isEqualTo(270532608);
        assertThat(memory.cache()).isEqualTo(15728640);
        assertThat(memory.swap()).isEqualTo(4096); // memory.swap.current alone (runc and Nomad add memory.current)
        assertThat(memory.workingSet()).isEqualTo(287965184 - 11534336);
        assertThat(memory.mappedFile()).isZero();
        assertThat(memory.kernelUsage()).isZero();
        assertThat(memory.measured()).containsExactly("RSS", "Cache", "Swap", "Usage", "Max Usage");

        TaskCpuTimes cpu = sample.cpu();
        assertThat(cpu.totalNs()).isEqualTo(5218443000L);
        assertThat(cpu.userNs()).isEqualTo(4987211000L);
        assertThat(cpu.systemNs()).isEqualTo(231232000L);
        assertThat(cpu.throttledPeriods()).isEqualTo(37);
        assertThat(cpu.throttledNs()).isEqualTo(1893440000L);
    }

    @Test
    void v2GivesItsPreviousSampleUntilAFigureMovesAndThenWhatAFreshReaderGives(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        copyFixture("/cgroupv2/task", dir);
        CgroupV2StatsReader kept = new CgroupV2StatsReader(dir, BUDGET);
        TaskRawSample previous = kept.read();
        assertThat(kept.read()).isSameAs(previous);

        eachReportedFigureMoves(kept, () -> new CgroupV2StatsReader(dir, BUDGET), dir,
                new String[] {"memory.current", "memory.peak", "memory.swap.current", "memory.stat", "cpu.stat"},
                Map.of("memory.stat", "anon ", "cpu.stat", "nr_throttled "));
    }

    @Test
    void v2OnAnOldKernelHasNoPeakAndNoSwap() throws IOException {
        TaskRawSample sample = new CgroupV2StatsReader(fixture("/cgroupv2/old-kernel"), BUDGET).read();

        assertThat(sample.memory().measured()).containsExactly("RSS", "Cache", "Usage");
        assertThat(sample.memory().maxUsage()).isZero();
    }

    @Test
    void aRemovedCgroupMeasuresNothing(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        TaskRawSample sample = new CgroupV2StatsReader(dir.resolve("gone"), BUDGET).read();

        assertThat(sample.memory().fields()).isEmpty();
        assertThat(sample.cpu().fields()).isEmpty();
    }

    /**
     * Each file in turn: a figure the reader reports (the first number, or the one after {@code keys}' key for that
     * file) gains a digit, then goes back. The kept reader must give a new sample equal to a fresh reader's, keeping
     * the part (memory or CPU) that did not move, then the same sample while nothing moves.
     */
    private static void eachReportedFigureMoves(TaskStatsReader kept, java.util.function.Supplier<TaskStatsReader> fresh,
            Path dir, String[] files, Map<String, String> keys) throws IOException {
        TaskRawSample previous = kept.read();
        for (String file : files) {
            Path path = dir.resolve(file);
            String before = java.nio.file.Files.readString(path);
            java.nio.file.Files.writeString(path, before.replaceFirst("(" + keys.getOrDefault(file, "") + "\\d+)", "$17"));
            TaskRawSample moved = kept.read();
            assertThat(moved).as(file).isNotSameAs(previous).usingRecursiveComparison().isNotEqualTo(previous)
                    .isEqualTo(fresh.get().read());
            if (file.startsWith("memory.")) {
                assertThat(moved.cpu()).as(file + ": the CPU part is kept").isSameAs(previous.cpu());
            } else {
                assertThat(moved.memory()).as(file + ": the memory part is kept").isSameAs(previous.memory());
            }
            assertThat(kept.read()).as(file).isSameAs(moved);

            java.nio.file.Files.writeString(path, before);
            previous = kept.read();
            assertThat(previous).as(file + " back").usingRecursiveComparison().isEqualTo(fresh.get().read());
        }
        assertThat(kept.read()).isSameAs(previous);
    }

    /** Copies a fixture's files into {@code dir}; their names, sorted. */
    private static String[] copyFixture(String name, Path dir) throws IOException {
        Path fixture = fixture(name);
        String[] files;
        try (var list = java.nio.file.Files.list(fixture)) {
            files = list.map(f -> f.getFileName().toString()).sorted().toArray(String[]::new);
        }
        for (String file : files) {
            java.nio.file.Files.copy(fixture.resolve(file), dir.resolve(file));
        }
        return files;
    }

    static Path fixture(String name) {
        try {
            return Path.of(CgroupStatsReadersTest.class.getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
