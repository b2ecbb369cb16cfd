package dev.berth.host.cgroup;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The swap a task may use: none when off; LimitedSwap's proportional share, or the task's own budget, when allowed. */
class SwapBudgetTest {

    private static final List<String> MEMINFO = List.of("MemTotal:       16777216 kB", "MemFree:         1000000 kB",
            "SwapCached:            0 kB", "SwapTotal:       4194304 kB", "SwapFree:        4194304 kB");

    @Test
    void offGivesNoSwapWhateverTheTaskAsks() {
        assertThat(SwapBudget.OFF.forTask(1L << 30, -1)).isZero();
        assertThat(SwapBudget.OFF.forTask(1L << 30, 512L << 20)).isZero();
    }

    @Test
    void limitedIsTheTasksShareOfTheHostsSwapAsItsShareOfMemory() {
        SwapBudget budget = SwapBudget.limited(MEMINFO);
        assertThat(budget).isEqualTo(new SwapBudget(true, 16L << 30, 4L << 30));
        // 1 GiB of 16 GiB memory: 1/16 of 4 GiB swap
        assertThat(budget.forTask(1L << 30, -1)).isEqualTo(256L << 20);
        assertThat(budget.forTask(300L << 20, -1)).isEqualTo(75L << 20);
        assertThat(budget.forTask(0, -1)).isZero();
    }

    @Test
    void anExplicitBudgetWinsAndZeroMeansNone() {
        SwapBudget budget = SwapBudget.limited(MEMINFO);
        assertThat(budget.forTask(1L << 30, 64L << 20)).isEqualTo(64L << 20);
        assertThat(budget.forTask(1L << 30, 0)).isZero();
    }

    @Test
    void aHostWithoutSwapGivesNone() {
        SwapBudget budget = SwapBudget.limited(List.of("MemTotal:       16777216 kB", "SwapTotal:             0 kB"));
        assertThat(budget.forTask(1L << 30, -1)).isZero();
    }
}
