package dev.berth.stats;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import oshi.SystemInfo;
import oshi.util.GlobalConfig;

/**
 * Cost of one host-stats collection (what every tick of {@code berth.telemetry.collection-interval} pays), and of
 * each of its parts. OSHI memoizes ticks and memory for 300 ms by default; the production tick (1 s) always misses
 * that cache, so {@code memoizeMs=0} is the realistic figure and 300 shows what the cache hides.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class HostStatsCollectionBenchmark {

    @Param({"0", "300"})
    int memoizeMs;

    private OshiHostStatsSource source;
    private HostStatsCollector collector;
    private final Path allocDir = Path.of(System.getProperty("java.io.tmpdir"), "berth-bench-alloc");

    @Setup
    public void setUp() {
        GlobalConfig.set(GlobalConfig.OSHI_UTIL_MEMOIZER_EXPIRATION, memoizeMs);
        source = new OshiHostStatsSource(new SystemInfo());
        collector = new HostStatsCollector(source, Clock.systemUTC(), (interval, tick) -> () -> { }, Duration.ofSeconds(1),
                allocDir, List.of());
        collector.collect();
    }

    /** One full tick: CPU ticks + deltas, memory, partitions, alloc dir usage, uptime, snapshot. */
    @Benchmark
    public HostStats collect() {
        return collector.collect();
    }

    @Benchmark
    public long[][] cpuTicks() {
        return source.cpuTicks();
    }

    @Benchmark
    public HostMemoryStats memory() {
        return source.memory();
    }

    @Benchmark
    public Object disks() {
        return source.disks();
    }

    @Benchmark
    public HostDiskStats allocDirUsage() throws Exception {
        return source.usage(allocDir);
    }
}
