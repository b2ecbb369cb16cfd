import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.logs.Fifo;
import dev.berth.driver.logs.RotatingFileWriter;
import dev.berth.driver.logs.TaskLogPump;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.driver.rawexec.TaskOutputs;

/**
 * A raw_exec task writes MIB MiB of stdout as fast as it can ({@code head -c | cat}); measures wall time to the task's
 * exit with all bytes on disk and the agent JVM's CPU time, (a) appended straight to a file by the kernel, (b) through
 * the FIFO, the in-process pump and the rotating writer (10 × 10 MB). Run: see docs/benchmarks-gc.md.
 */
public class LogPumpBench {

    public static void main(String[] args) throws Exception {
        int mib = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path dir = Files.createTempDirectory("berth-log-bench");
        for (int r = 0; r < rounds; r++) {
            run(dir.resolve("direct-" + r), mib, false);
            run(dir.resolve("fifo-" + r), mib, true);
        }
    }

    static void run(Path dir, int mib, boolean fifo) throws Exception {
        Path taskDir = Files.createDirectories(dir.resolve("task"));
        Path logs = Files.createDirectories(dir.resolve("logs"));
        RawExecDriver driver = new RawExecDriver(true, Clock.systemUTC(), dir.resolve("exit"), new ScheduledThreadPoolExecutor(1),
                Duration.ofMillis(250), fifo ? TaskOutputs.FIFOS_OR_FILES : TaskOutputs.APPEND_TO_FILES);
        Path out = logs.resolve("t.stdout.0");
        TaskLogPump pump = null;
        java.nio.channels.FileChannel holder = null;
        if (fifo) {
            out = Fifo.create(taskDir.resolve(".berth/stdout.fifo"));
            pump = TaskLogPump.start(out, new RotatingFileWriter(logs, "t.stdout", 10, 10L * 1024 * 1024), "bench-pump");
            holder = java.nio.channels.FileChannel.open(out, java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE);
        }
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        TaskConfig cfg = new TaskConfig("bench/t", "bench", "t", "j", "g", "default",
                Map.of("command", "/bin/sh", "args", List.of("-c", "head -c " + mib + "M /dev/zero | cat")),
                Map.of("PATH", "/usr/bin:/bin"), dir, taskDir, out, logs.resolve("t.stderr.0"), 0, 0, 0, List.of());
        TaskHandle h = driver.start(cfg);
        ExitResult exit = driver.waitTask(h).get(10, TimeUnit.MINUTES);
        if (fifo) {
            holder.close();
            pump.awaitEnd(60_000);
        }
        long wall = System.nanoTime() - t0;
        long cpu = os.getProcessCpuTime() - cpu0;
        long bytes;
        try (Stream<Path> files = Files.list(logs)) {
            bytes = files.filter(p -> p.getFileName().toString().startsWith("t.stdout.")).mapToLong(p -> p.toFile().length()).sum();
        }
        double secs = wall / 1e9;
        System.out.printf("%-6s %4d MiB exit=%d wall=%.2fs %.0f MiB/s agentCpu=%.2fs bytesKept=%d%n", fifo ? "fifo" : "direct",
                mib, exit.exitCode(), secs, mib / secs, cpu / 1e9, bytes);
        driver.destroy(h, true);
    }
}
