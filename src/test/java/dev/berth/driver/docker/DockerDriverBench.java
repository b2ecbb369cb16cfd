package dev.berth.driver.docker;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Statistics;

import dev.berth.driver.TaskHandle;

/**
 * Not a test: a measurement tool run by perf/docker-bench.sh against the local engine. Prints docker start latency
 * through the driver and the cost of the engine's stats call (why container stats come from the cgroup files instead).
 */
public final class DockerDriverBench {

    public static void main(String[] args) throws Exception {
        int starts = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int containers = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        Path root = Files.createTempDirectory("berth-docker-bench");
        try (DockerDriver driver = DockerTestTasks.driver()) {
            startLatency(driver, root, starts);
            statsCost(driver, root, containers);
        }
    }

    private static void startLatency(DockerDriver driver, Path root, int n) throws Exception {
        double[] start = new double[n];
        double[] toExit = new double[n];
        double[] destroy = new double[n];
        for (int i = -2; i < n; i++) { // two warm-up rounds
            var task = DockerTestTasks.shell(root, "exit 0", 0, 0);
            long t0 = System.nanoTime();
            TaskHandle handle = driver.start(task);
            long t1 = System.nanoTime();
            driver.waitTask(handle).get(30, TimeUnit.SECONDS);
            long t2 = System.nanoTime();
            driver.destroy(handle, true);
            long t3 = System.nanoTime();
            if (i >= 0) {
                start[i] = (t1 - t0) / 1e6;
                toExit[i] = (t2 - t0) / 1e6;
                destroy[i] = (t3 - t2) / 1e6;
            }
        }
        System.out.printf("start() [create+start+inspect], ms: %s%n", summary(start));
        System.out.printf("start() to exit observed (sh -c 'exit 0'), ms: %s%n", summary(toExit));
        System.out.printf("destroy(force), ms: %s%n", summary(destroy));
    }

    private static void statsCost(DockerDriver driver, Path root, int n) throws Exception {
        List<TaskHandle> handles = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                handles.add(driver.start(DockerTestTasks.shell(root, "while :; do sleep 1; done", 64, 100)));
            }
            // the cgroup side is the shared stats readers now: see TaskSampleBenchmark (docs/benchmarks/stats.md)
            DockerClient client = DockerClients.create(DockerTestTasks.LOCAL_ENGINE, Duration.ofSeconds(5), null);
            double[] engine = new double[3];
            for (int i = 0; i < engine.length; i++) {
                String id = handles.get(i % handles.size()).driverState().get(DockerDriver.STATE_CONTAINER_ID);
                long t0 = System.nanoTime();
                ResultCallback.Adapter<Statistics> cb = client.statsCmd(id).withNoStream(true).exec(new ResultCallback.Adapter<>());
                cb.awaitCompletion(10, TimeUnit.SECONDS);
                engine[i] = (System.nanoTime() - t0) / 1e6;
            }
            System.out.printf("engine statsCmd(noStream) per container, ms: %s%n", summary(engine));
            client.close();
        } finally {
            for (TaskHandle handle : handles) {
                driver.destroy(handle, true);
            }
        }
    }

    private static String summary(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return String.format("n=%d min=%.1f median=%.1f p90=%.1f max=%.1f", sorted.length, sorted[0], sorted[sorted.length / 2],
                sorted[(int) Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)], sorted[sorted.length - 1]);
    }
}
