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
 * TASKS raw_exec tasks (default 1) together write MIB MiB of stdout as fast as they can ({@code head -c | cat}, MIB/TASKS
 * each); measures wall time until every task has exited with all bytes on disk and the agent JVM's CPU time, (a) appended
 * straight to files by the kernel, (b) through the FIFOs, the in-process pump (whichever {@code TaskLogPump.start} picks:
 * epoll on Linux) and the rotating writers (10 × 10 MB each). Deletes its temp dir at the end.
 * Run: see docs/benchmarks/allocations.md.
 */
public class LogPumpBench {

    public static void main(String[] args) throws Exception {
        int mib = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int tasks = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        Path dir = Files.createTempDirectory("berth-log-bench");
        try {
            for (int r = 0; r < rounds; r++) {
                run(dir.resolve("direct-" + r), mib, tasks, false);
                run(dir.resolve("fifo-" + r), mib, tasks, true);
            }
        } finally {
            try (Stream<Path> all = Files.walk(dir)) {
                all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    static void run(Path dir, int mib, int tasks, boolean fifo) throws Exception {
        RawExecDriver driver = new RawExecDriver(true, Clock.systemUTC(), dir.resolve("exit"), new ScheduledThreadPoolExecutor(1),
                Duration.ofMillis(250), fifo ? TaskOutputs.FIFOS_OR_FILES : TaskOutputs.APPEND_TO_FILES);
        Path logs = Files.createDirectories(dir.resolve("logs"));
        ManagementFactory.getThreadMXBean().resetPeakThreadCount();
        long kib = mib * 1024L / tasks;
        List<TaskLogPump> pumps = new java.util.ArrayList<>();
        List<java.nio.channels.FileChannel> holders = new java.util.ArrayList<>();
        List<Path> outs = new java.util.ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            Path taskDir = Files.createDirectories(dir.resolve("task" + t));
            Path out = logs.resolve("t" + t + ".stdout.0");
            if (fifo) {
                out = Fifo.create(taskDir.resolve(".berth/stdout.fifo"));
                pumps.add(TaskLogPump.start(out, new RotatingFileWriter(logs, "t" + t + ".stdout", 10, 10L * 1024 * 1024), "bench-pump-" + t));
                holders.add(java.nio.channels.FileChannel.open(out, java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE));
            }
            outs.add(out);
        }
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        List<TaskHandle> handles = new java.util.ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            Path taskDir = dir.resolve("task" + t);
            TaskConfig cfg = new TaskConfig("bench/t" + t, "bench", "t" + t, "j", "g", "default",
                    Map.of("command", "/bin/sh", "args", List.of("-c", "head -c " + kib + "K /dev/zero | cat")),
                    Map.of("PATH", "/usr/bin:/bin"), dir, taskDir, outs.get(t), logs.resolve("t" + t + ".stderr.0"), 0, 0, 0, List.of());
            handles.add(driver.start(cfg));
        }
        int exitSum = 0;
        for (TaskHandle h : handles) {
            ExitResult exit = driver.waitTask(h).get(10, TimeUnit.MINUTES);
            exitSum += exit.exitCode();
        }
        int threadsPeak = ManagementFactory.getThreadMXBean().getPeakThreadCount();
        for (int t = 0; t < pumps.size(); t++) {
            holders.get(t).close();
            pumps.get(t).awaitEnd(60_000);
        }
        long wall = System.nanoTime() - t0;
        long cpu = os.getProcessCpuTime() - cpu0;
        long bytes;
        try (Stream<Path> files = Files.list(logs)) {
            bytes = files.filter(p -> p.getFileName().toString().contains(".stdout.")).mapToLong(p -> p.toFile().length()).sum();
        }
        double secs = wall / 1e9;
        System.out.printf("%-6s %4d MiB tasks=%d exitSum=%d wall=%.2fs %.0f MiB/s agentCpu=%.2fs bytesKept=%d peakThreads=%d%n",
                fifo ? "fifo" : "direct", mib, tasks, exitSum, secs, mib / secs, cpu / 1e9, bytes, threadsPeak);
        for (TaskHandle h : handles) {
            driver.destroy(h, true);
        }
    }
}
