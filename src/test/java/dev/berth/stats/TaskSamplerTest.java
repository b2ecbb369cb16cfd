package dev.berth.stats;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.berth.host.cgroup.CgroupVersion;

import static org.assertj.core.api.Assertions.assertThat;
import dev.berth.support.TestClock;
import static org.assertj.core.api.Assertions.within;

class TaskSamplerTest {

    static final TaskStatsTarget TARGET = new TaskStatsTarget("a1", "web", "job", "group", "default", CgroupVersion.NONE, Map.of(), 1, 0);

    private final TestClock clock = new TestClock(Instant.parse("2026-11-22T00:00:00Z"));
    private final Deque<TaskRawSample> reads = new ArrayDeque<>();
    private final TaskSampler sampler = new TaskSampler(TARGET, reads::poll, new TaskCpuCapacity(8000, 4), clock);

    @Test
    void cpuPercentFollowsNomadsTrackerNotDividedByCores() throws Exception {
        reads.add(cpu(1_000_000_000L, 800_000_000L, 200_000_000L));
        reads.add(cpu(3_000_000_000L, 2_400_000_000L, 600_000_000L)); // 2 s of CPU in 1 s: two busy cores
        reads.add(cpu(3_000_000_000L, 2_400_000_000L, 600_000_000L)); // idle
        reads.add(cpu(2_000_000_000L, 2_400_000_000L, 600_000_000L)); // counter went back: 0, never negative

        TaskCpuStats first = sampler.sample().usage().cpu();
        assertThat(first.percent()).isZero();
        assertThat(first.totalTicks()).isZero();

        clock.advance(Duration.ofSeconds(1));
        TaskStatsSnapshot second = sampler.sample();
        assertThat(second.usage().cpu().percent()).isCloseTo(200.0, within(1e-9));
        assertThat(second.usage().cpu().userMode()).isCloseTo(160.0, within(1e-9));
        assertThat(second.usage().cpu().systemMode()).isCloseTo(40.0, within(1e-9));
        assertThat(second.usage().cpu().totalTicks()).isCloseTo(2.0 * 8000 / 4, within(1e-9)); // percent/100 × compute/cores
        assertThat(second.usage().cpu().totalNs()).isEqualTo(3_000_000_000L);
        assertThat(second.timestampNanos()).isEqualTo(clock.instant().toEpochMilli() * 1_000_000L);

        clock.advance(Duration.ofSeconds(1));
        assertThat(sampler.sample().usage().cpu().percent()).isZero();
        clock.advance(Duration.ofSeconds(1));
        assertThat(sampler.sample().usage().cpu().percent()).isZero();
    }

    @Test
    void theSameFiguresAtTheSameRatesKeepTheirObjectsAndEverySampleItsOwnTime() throws Exception {
        TaskRawSample idle = cpu(5_000_000_000L, 4_000_000_000L, 1_000_000_000L);
        reads.add(cpu(4_000_000_000L, 3_000_000_000L, 1_000_000_000L));
        reads.add(idle);
        reads.add(idle); // an idle task's reader gives its previous sample again
        reads.add(idle);
        reads.add(cpu(5_000_000_000L, 4_000_000_000L, 1_000_000_000L)); // the same figures in new objects

        sampler.sample();
        clock.advance(Duration.ofSeconds(1));
        TaskStatsSnapshot moved = sampler.sample();
        clock.advance(Duration.ofSeconds(1));
        TaskStatsSnapshot stopped = sampler.sample();
        clock.advance(Duration.ofSeconds(1));
        TaskStatsSnapshot still = sampler.sample();
        clock.advance(Duration.ofSeconds(1));
        TaskStatsSnapshot copied = sampler.sample();

        assertThat(moved.usage().cpu().percent()).isCloseTo(100.0, within(1e-9));
        assertThat(stopped.usage().cpu().percent()).isZero(); // same counters, but the rate fell: a new figure
        assertThat(stopped.usage()).isNotSameAs(moved.usage());
        assertThat(still.usage()).isSameAs(stopped.usage()); // same counters, same rate: nothing to build
        assertThat(still.timestampNanos()).isGreaterThan(stopped.timestampNanos());
        assertThat(copied.usage()).isNotSameAs(still.usage()).usingRecursiveComparison().isEqualTo(still.usage());
        assertThat(java.util.List.of(moved, stopped, still, copied)).extracting(TaskStatsSnapshot::timestampNanos)
                .doesNotHaveDuplicates();
    }

    @Test
    void zeroWallTimeGivesZeroNotInfinity() throws Exception {
        reads.add(cpu(1, 1, 0));
        reads.add(cpu(1_000_000, 1, 0));
        sampler.sample();

        assertThat(sampler.sample().usage().cpu().percent()).isZero();
    }

    @Test
    void perPidTrackersStartFreshForNewProcessesAndKeyByPidString() throws Exception {
        TaskMemoryStats mem = new TaskMemoryStats(100, 0, 0, 0, 0, 0, 0, 0, 0, Set.of(TaskMemoryField.RSS));
        reads.add(new TaskRawSample(mem, times(10), Map.of(7L, new TaskRawSample.Proc(mem, times(10)))));
        reads.add(new TaskRawSample(mem, times(10 + 500_000_000L), Map.of(
                7L, new TaskRawSample.Proc(mem, times(10 + 250_000_000L)),
                8L, new TaskRawSample.Proc(mem, times(250_000_000L)))));

        sampler.sample();
        clock.advance(Duration.ofSeconds(1));
        TaskStatsSnapshot snapshot = sampler.sample();

        assertThat(snapshot.pids()).containsOnlyKeys("7", "8");
        assertThat(snapshot.pids().get("7").cpu().percent()).isCloseTo(25.0, within(1e-9));
        assertThat(snapshot.pids().get("8").cpu().percent()).isZero(); // first sample of a new process
        assertThat(snapshot.usage().cpu().percent()).isCloseTo(50.0, within(1e-9));
    }

    private static TaskRawSample cpu(long total, long user, long system) {
        return new TaskRawSample(TaskMemoryStats.NONE, new TaskCpuTimes(total, user, system, 0, 0,
                Set.of(TaskCpuField.PERCENT, TaskCpuField.USER_MODE, TaskCpuField.SYSTEM_MODE)), Map.of());
    }

    private static TaskCpuTimes times(long total) {
        return new TaskCpuTimes(total, total, 0, 0, 0, Set.of(TaskCpuField.PERCENT, TaskCpuField.USER_MODE));
    }

}
