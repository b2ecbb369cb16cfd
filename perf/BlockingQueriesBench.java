import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * N concurrent Nomad blocking queries against a running agent: {@code GET /v1/allocation/:id?index=<current>&wait=5m}
 * on one running allocation (each query on its own connection), then one change (a signal) that must wake them all.
 * Prints the agent's live threads (/proc/PID/status) and used heap (/actuator/metrics) before and while the queries
 * wait, and the wake-up latency (p50/p99/max) once the change is published.
 * Run: java perf/BlockingQueriesBench.java BASE_URL AGENT_PID ALLOC_ID [N=2000]   (see docs/benchmarks/streams.md)
 */
public class BlockingQueriesBench {

    public static void main(String[] args) throws Exception {
        String base = args[0];
        long pid = Long.parseLong(args[1]);
        String alloc = args[2];
        int n = args.length > 3 ? Integer.parseInt(args[3]) : 2000;
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

        HttpResponse<String> first = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/allocation/" + alloc)).build(),
                HttpResponse.BodyHandlers.ofString());
        String index = first.headers().firstValue("X-Nomad-Index").orElseThrow();
        System.gc();
        report("before", base, pid, http);

        // a client per 250 queries: each client keeps its own connections, so every query holds one
        List<HttpClient> clients = new ArrayList<>();
        List<CompletableFuture<Long>> waiting = new ArrayList<>();
        long[] answeredAt = new long[n];
        for (int i = 0; i < n; i++) {
            if (i % 250 == 0) {
                clients.add(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build());
            }
            int k = i;
            HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/v1/allocation/" + alloc + "?index=" + index + "&wait=5m"))
                    .timeout(Duration.ofMinutes(7)).build();
            waiting.add(clients.getLast().sendAsync(req, HttpResponse.BodyHandlers.discarding()).thenApply(r -> {
                answeredAt[k] = System.nanoTime();
                return Long.parseLong(r.headers().firstValue("X-Nomad-Index").orElse("0"));
            }));
        }
        // wait until the agent holds them all (its waiter count is not exposed; poll threads/heap a few times)
        Thread.sleep(15_000);
        long early = waiting.stream().filter(CompletableFuture::isDone).count();
        System.out.println("answered before any change (must be 0): " + early);
        report("while " + n + " wait", base, pid, http);

        long changedAt = System.nanoTime();
        HttpResponse<String> signal = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/client/allocation/" + alloc + "/signal"))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString("{\"Signal\":\"SIGUSR1\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (signal.statusCode() != 200) {
            throw new IllegalStateException("signal: " + signal.statusCode() + " " + signal.body());
        }
        CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).get();
        long newer = waiting.stream().filter(f -> f.join() > Long.parseLong(index)).count();
        long[] lat = new long[n];
        for (int i = 0; i < n; i++) {
            lat[i] = answeredAt[i] - changedAt;
        }
        java.util.Arrays.sort(lat);
        System.out.printf("woken with a newer index: %d/%d; wake latency p50=%.1f ms p99=%.1f ms max=%.1f ms%n", newer, n,
                lat[n / 2] / 1e6, lat[(int) (n * 0.99)] / 1e6, lat[n - 1] / 1e6);
        report("after", base, pid, http);
    }

    private static void report(String when, String base, long pid, HttpClient http) throws Exception {
        String status = Files.readString(Path.of("/proc/" + pid + "/status"));
        Matcher t = Pattern.compile("Threads:\\s+(\\d+)").matcher(status);
        Matcher rss = Pattern.compile("VmRSS:\\s+(\\d+)").matcher(status);
        t.find();
        rss.find();
        String heap = http.send(HttpRequest.newBuilder(URI.create(base + "/actuator/metrics/jvm.memory.used?tag=area:heap")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher v = Pattern.compile("\"value\":([0-9.E]+)").matcher(heap);
        double used = v.find() ? Double.parseDouble(v.group(1)) : -1;
        String load = Files.readString(Path.of("/proc/loadavg")).trim();
        System.out.printf("%-16s threads=%s rss=%d MiB heap-used=%.1f MiB load=%s%n", when, t.group(1),
                Long.parseLong(rss.group(1)) / 1024, used / 1048576, load);
    }
}
