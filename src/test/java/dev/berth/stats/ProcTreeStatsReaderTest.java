package dev.berth.stats;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import dev.berth.support.TestClock;
import static org.awaitility.Awaitility.await;

class ProcTreeStatsReaderTest {

    private static final Path PROC = Path.of("/proc");

    private final TestClock clock = new TestClock(java.time.Instant.parse("2026-11-22T00:00:00Z"));
    private Process shell;

    @AfterEach
    void tearDown() {
        if (shell != null) {
            shell.descendants().forEach(ProcessHandle::destroyForcibly);
            shell.destroyForcibly();
        }
    }

    @Test
    void sumsTheWholeTreeWithAnEntryPerPid() throws Exception {
        shell = new ProcessBuilder("/bin/sh", "-c", "sleep 300 & (sleep 300 & wait) & wait").start();
        await().atMost(Duration.ofSeconds(5)).until(() -> shell.descendants().count() == 3);
        ProcTreeStatsReader reader = new ProcTreeStatsReader(PROC, shell.pid(), dev.berth.host.ProcStat.read(shell.pid()).orElseThrow().startTicks(), clock);

        TaskRawSample sample = reader.read();

        assertThat(sample.pids()).hasSize(4).containsKey(shell.pid());
        long summed = sample.pids().values().stream().mapToLong(p -> p.memory().rss()).sum();
        assertThat(sample.memory().rss()).isEqualTo(summed).isPositive();
        assertThat(sample.memory().measured()).containsExactly("RSS", "Swap");
        assertThat(sample.cpu().fields()).containsExactlyInAnyOrder(TaskCpuField.PERCENT, TaskCpuField.USER_MODE, TaskCpuField.SYSTEM_MODE);
    }

    @Test
    void newChildrenAppearAfterTheTreeCacheExpires() throws Exception {
        shell = new ProcessBuilder("/bin/sh", "-c", "read go; sleep 300 & wait").start();
        ProcTreeStatsReader reader = new ProcTreeStatsReader(PROC, shell.pid(), 0, clock);
        assertThat(reader.read().pids()).hasSize(1);
        shell.getOutputStream().write('\n');
        shell.getOutputStream().flush();
        await().atMost(Duration.ofSeconds(5)).until(() -> shell.descendants().count() == 1);

        assertThat(reader.read().pids()).hasSize(1); // cached tree
        clock.advance(ProcTreeStatsReader.TREE_TTL);
        assertThat(reader.read().pids()).hasSize(2);
    }

    @Test
    void aRecycledPidOrAnExitedTaskMeasuresNothing() throws Exception {
        shell = new ProcessBuilder("sleep", "300").start();
        long ticks = dev.berth.host.ProcStat.read(shell.pid()).orElseThrow().startTicks();

        assertThat(new ProcTreeStatsReader(PROC, shell.pid(), ticks + 1, clock).read()).isEqualTo(TaskRawSample.NONE);
        shell.destroyForcibly().waitFor();
        assertThat(new ProcTreeStatsReader(PROC, shell.pid(), ticks, clock).read()).isEqualTo(TaskRawSample.NONE);
    }
}
