import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import dev.berth.host.ProcStat;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.driver.rawexec.TaskOutputs;

/**
 * Starts N real raw_exec tasks ({@code sleep 1000}) through RawExecDriver, measures the RSS of each task's shim shell
 * and of the task itself with {@code ps -o rss}, the time start() takes, and the time stop(SIGTERM) takes; then
 * stops everything. Run: see perf/README.md (figures: docs/benchmarks/allocations.md).
 */
public class RawExecShimBench {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        Path dir = Files.createTempDirectory("berth-shim-bench");
        RawExecDriver driver = new RawExecDriver(true, Clock.systemUTC(), dir.resolve("exit"),
                new ScheduledThreadPoolExecutor(1), Duration.ofMillis(250), TaskOutputs.APPEND_TO_FILES);
        List<TaskHandle> handles = new ArrayList<>();
        long[] startNanos = new long[n];
        for (int i = 0; i < n; i++) {
            Path taskDir = Files.createDirectories(dir.resolve("t" + i));
            TaskConfig task = new TaskConfig("bench/t" + i, "bench", "t" + i, "job", "g", "default",
                    Map.of("command", "sleep", "args", List.of("1000")), Map.of("PATH", "/usr/bin:/bin"), dir, taskDir,
                    taskDir.resolve("out"), taskDir.resolve("err"), 0, 0, 0, List.of());
            long t0 = System.nanoTime();
            handles.add(driver.start(task));
            startNanos[i] = System.nanoTime() - t0;
        }
        // Let every shim reach its wait (the child is the sleep).
        for (TaskHandle h : handles) {
            long pid = Long.parseLong(h.driverState().get("pid"));
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (ProcStat.children(pid).isEmpty() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
        }
        long shimRss = 0, taskRss = 0, shimPss = 0;
        int counted = 0;
        for (TaskHandle h : handles) {
            long pid = Long.parseLong(h.driverState().get("pid"));
            List<Long> children = ProcStat.children(pid);
            if (children.size() != 1) {
                continue;
            }
            shimRss += rss(pid);
            shimPss += pss(pid);
            taskRss += rss(children.getFirst());
            counted++;
        }
        long stopTotal = 0, stopMax = 0;
        for (TaskHandle h : handles) {
            long t0 = System.nanoTime();
            driver.stop(h, Duration.ofSeconds(5), "SIGTERM");
            driver.waitTask(h).join();
            long d = System.nanoTime() - t0;
            stopTotal += d;
            stopMax = Math.max(stopMax, d);
            driver.destroy(h, false);
        }
        driver.close();
        java.util.Arrays.sort(startNanos);
        System.out.printf("tasks=%d measured=%d%n", n, counted);
        System.out.printf("shim RSS avg = %d KB (PSS %d KB), task (sleep) RSS avg = %d KB%n", shimRss / counted,
                shimPss / counted, taskRss / counted);
        System.out.printf("start(): median %.2f ms, p90 %.2f ms, max %.2f ms%n", startNanos[n / 2] / 1e6,
                startNanos[(int) (n * 0.9)] / 1e6, startNanos[n - 1] / 1e6);
        System.out.printf("stop(SIGTERM)+exit: avg %.2f ms, max %.2f ms%n", stopTotal / 1e6 / n, stopMax / 1e6);
    }

    /** Proportional set size: shared pages (libc, the sh binary) divided among the processes mapping them. */
    private static long pss(long pid) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/smaps_rollup"))) {
            if (line.startsWith("Pss:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }

    private static long rss(long pid) throws Exception {
        Process p = new ProcessBuilder("ps", "-o", "rss=", "-p", Long.toString(pid)).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        p.waitFor();
        return Long.parseLong(out);
    }
}
