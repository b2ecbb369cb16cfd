package dev.berth.stats;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HostCpuStatsCalculatorTest {

    private final HostCpuStatsCalculator calculator = new HostCpuStatsCalculator();

    //                                user nice sys idle iowait irq softirq steal
    private static final long[] T0 = {100, 0, 50, 800, 10, 0, 0, 0};
    private static final long[] T1 = {160, 10, 70, 900, 20, 30, 5, 5}; // Δ: 60 10 20 100 10 30 5 5 = 240

    @Test
    void percentagesAreDeltasOverTheIntervalAndBusyIsEveryModeButIdle() {
        calculator.calculate(new long[][] {T0, T0}, 4000);
        List<HostCpuStats> stats = calculator.calculate(new long[][] {T1, T0}, 4000);

        HostCpuStats cpu0 = stats.get(0);
        assertThat(cpu0.cpu()).isEqualTo("cpu0");
        assertThat(cpu0.idle()).isEqualTo(100.0 / 240 * 100);
        assertThat(cpu0.user()).isEqualTo(60.0 / 240 * 100);
        assertThat(cpu0.system()).isEqualTo(20.0 / 240 * 100);
        assertThat(cpu0.totalPercent()).isEqualTo(140.0 / 240 * 100);
        // TotalTicks = total/100 × (TotalCompute / cores) = share × 2000 MHz
        assertThat(cpu0.totalTicks()).isEqualTo(140.0 / 240 * 100 / 100 * 2000);
    }

    @Test
    void theFirstSampleIsTheAverageSinceBoot() {
        HostCpuStats cpu0 = calculator.calculate(new long[][] {T0}, 1000).get(0);

        assertThat(cpu0.idle()).isEqualTo(800.0 / 960 * 100);
        assertThat(cpu0.user()).isEqualTo(100.0 / 960 * 100);
        assertThat(cpu0.totalPercent()).isEqualTo(160.0 / 960 * 100);
        assertThat(cpu0.totalTicks()).isEqualTo(160.0 / 960 * 100 / 100 * 1000);
    }

    @Test
    void noTicksInTheIntervalClampsIdleTo100AndTheRestTo0() {
        calculator.calculate(new long[][] {T0}, 1000);
        HostCpuStats cpu0 = calculator.calculate(new long[][] {T0}, 1000).get(0); // 0/0 = NaN

        assertThat(cpu0).isEqualTo(new HostCpuStats("cpu0", 0, 0, 100, 0, 0));
    }

    @Test
    void countersGoingBackwardsAreClamped() {
        calculator.calculate(new long[][] {T1}, 1000);
        // every counter went down (e.g. a core went offline and came back): negative deltas
        HostCpuStats cpu0 = calculator.calculate(new long[][] {T0}, 1000).get(0);

        assertThat(cpu0.idle()).isEqualTo(100.0 / 240 * 100); // -100 / -240 is positive: kept as Nomad keeps it
        assertThat(cpu0.user()).isEqualTo(60.0 / 240 * 100);
        long[] idleDown = T1.clone();
        idleDown[HostCpuStatsCalculator.IDLE] -= 50;
        idleDown[HostCpuStatsCalculator.USER] += 100;
        calculator.calculate(new long[][] {T1}, 1000);
        HostCpuStats mixed = calculator.calculate(new long[][] {idleDown}, 1000).get(0); // Δtotal 50, Δidle -50

        assertThat(mixed.idle()).isEqualTo(100.0);
        assertThat(mixed.user()).isEqualTo(200.0);
        assertThat(mixed.totalPercent()).isEqualTo(200.0);
    }

    @Test
    void unknownTotalComputeGivesZeroTicks() {
        assertThat(calculator.calculate(new long[][] {T0}, 0).get(0).totalTicks()).isZero();
    }
}
