package dev.berth.driver.docker;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.HostConfig;

import dev.berth.driver.TaskHandle;

/**
 * Not a test: a measurement tool run by perf/docker-reconcile-bench.sh against the local engine. Prints what the docker
 * part of the start-up reconciliation costs (listing this node's containers among other nodes' ones, then removing the
 * orphans as the reconciler does: recover + destroy(force), one after the other) and what bounding a call
 * ({@link BoundedHttpClient}: one virtual thread per call) adds to an engine round trip.
 */
public final class DockerReconcileBench {

    public static void main(String[] args) throws Exception {
        int orphans = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        String host = DockerTestTasks.LOCAL_ENGINE;
        try (DockerClient plain = DockerClients.create(host, Duration.ofSeconds(5), null)) {
            reconcile(plain, orphans);
            callOverhead(plain, DockerClients.create(host, Duration.ofSeconds(5), Duration.ofSeconds(60)), calls);
        }
    }

    private static void reconcile(DockerClient engine, int n) throws Exception {
        String node = "bench-" + UUID.randomUUID();
        String other = "bench-other-" + UUID.randomUUID();
        List<String> created = new ArrayList<>();
        try {
            for (int i = 0; i < 2 * n; i++) {
                String owner = i % 2 == 0 ? node : other;
                created.add(engine.createContainerCmd(DockerTestTasks.BUSYBOX).withCmd("sh", "-c", "sleep 600")
                        .withLabels(Map.of(DockerDriver.LABEL_NODE_ID, owner, DockerDriver.LABEL_ALLOC_ID, UUID.randomUUID().toString(),
                                DockerDriver.LABEL_TASK, "web"))
                        .withHostConfig(HostConfig.newHostConfig().withNetworkMode("none")).exec().getId());
            }
            try (DockerDriver driver = new DockerDriver(true, "never", DockerTestTasks.engine(DockerTestTasks.LOCAL_ENGINE), node,
                    Clock.systemUTC())) {
                double[] list = new double[5];
                List<TaskHandle> found = List.of();
                for (int i = 0; i < list.length; i++) {
                    long t0 = System.nanoTime();
                    found = driver.liveTasks();
                    list[i] = (System.nanoTime() - t0) / 1e6;
                }
                long t0 = System.nanoTime();
                double[] each = new double[found.size()];
                for (int i = 0; i < found.size(); i++) {
                    long t1 = System.nanoTime();
                    driver.destroy(driver.recover(found.get(i)), true);
                    each[i] = (System.nanoTime() - t1) / 1e6;
                }
                double total = (System.nanoTime() - t0) / 1e6;
                System.out.printf("liveTasks() with %d own + %d other containers (%d found), ms: %s%n", n, n, found.size(), summary(list));
                System.out.printf("recover+destroy(force) per orphan (created, never started), ms: %s%n", summary(each));
                System.out.printf("all %d orphans removed in %.0f ms%n", found.size(), total);
            }
        } finally {
            for (String id : created) {
                try {
                    engine.removeContainerCmd(id).withForce(true).exec();
                } catch (RuntimeException gone) {
                    // removed by the reconciliation
                }
            }
        }
    }

    private static void callOverhead(DockerClient plain, DockerClient bounded, int n) throws Exception {
        try (bounded) {
            String id = plain.createContainerCmd(DockerTestTasks.BUSYBOX).withCmd("true")
                    .withHostConfig(HostConfig.newHostConfig().withNetworkMode("none")).exec().getId();
            try {
                double[] a = new double[n];
                double[] b = new double[n];
                for (int round = -1; round < 1; round++) { // one warm-up round
                    for (int i = 0; i < n; i++) {
                        long t0 = System.nanoTime();
                        plain.inspectContainerCmd(id).exec();
                        a[i] = (System.nanoTime() - t0) / 1e6;
                        t0 = System.nanoTime();
                        bounded.inspectContainerCmd(id).exec();
                        b[i] = (System.nanoTime() - t0) / 1e6;
                    }
                }
                System.out.printf("inspect, unbounded client, ms: %s%n", summary(a));
                System.out.printf("inspect, bounded client (BoundedHttpClient), ms: %s%n", summary(b));
            } finally {
                plain.removeContainerCmd(id).withForce(true).exec();
            }
        }
    }

    private static String summary(double[] values) {
        if (values.length == 0) {
            return "n=0";
        }
        double[] v = values.clone();
        Arrays.sort(v);
        return String.format("min %.2f, median %.2f, p90 %.2f, max %.2f (n=%d)", v[0], v[v.length / 2],
                v[(int) Math.min(v.length - 1, Math.round(v.length * 0.9))], v[v.length - 1], v.length);
    }
}
