package dev.berth.device.nvidia;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One compute-process read for 8 GPUs × 64 processes (512 lines of {@code --query-compute-apps=pid,gpu_uuid,used_memory
 * --format=csv,noheader,nounits}): {@code parse} is Berth's side alone; {@code forkStandIn} also runs the stand-in
 * {@code nvidia-smi} script (fork + exec of {@code /bin/sh} + {@code cat}), i.e. the agent's per-read process cost
 * without the driver's own (NVML) time, which only a real GPU shows.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class GpuComputeAppsReadBenchmark {

    String output;

    NvidiaSmi smi;

    @Setup
    public void setUp() throws IOException {
        StringBuilder lines = new StringBuilder();
        for (int g = 0; g < 8; g++) {
            for (int p = 0; p < 64; p++) {
                lines.append(100000 + g * 64 + p).append(", GPU-").append(g).append("aaaaaaa-1111-2222-3333-444444444444, ")
                        .append(256 + p).append('\n');
            }
        }
        output = lines.toString();
        Path dir = Files.createTempDirectory("berth-bench-smi");
        Path script = dir.resolve("nvidia-smi");
        try (InputStream in = GpuComputeAppsReadBenchmark.class.getResourceAsStream("/nvidia/fake-nvidia-smi.sh")) {
            Files.copy(in, script);
        }
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(dir.resolve("compute-apps"), output);
        smi = new NvidiaSmi(script.toString(), Duration.ofSeconds(30));
    }

    @Benchmark
    public List<SmiProcesses.ComputeApp> parse() {
        return SmiProcesses.parseComputeApps(output);
    }

    @Benchmark
    public List<SmiProcesses.ComputeApp> forkStandIn() throws Exception {
        return smi.computeApps();
    }
}
