package dev.berth.monitoring;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.support.AgentJvm;

import static org.assertj.core.api.Assertions.fail;

/**
 * A real Prometheus server (Debian package {@code prometheus}) on a loopback ephemeral port with its own TSDB in a
 * temp dir, and a small client for its HTTP query API. Fails under {@code CI=true} when the binary is missing and is
 * skipped otherwise (like {@code Promtool}).
 */
final class PrometheusServer implements AutoCloseable {

    /** One scrape target with the target labels the shipped rules group by. */
    record Target(String address, String node, String datacenter) {
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final JsonMapper json = JsonMapper.builder().build();
    private final Path dir;
    private final int port;
    private Process process;

    PrometheusServer(Path dir) throws IOException {
        this.dir = dir;
        this.port = AgentJvm.freePort();
    }

    static Path binary(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path candidate = Path.of(d, name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail(name + " not found on PATH but CI=true: install the Debian package 'prometheus'");
        }
        Assumptions.abort(name + " not installed (Debian package 'prometheus'); skipped outside CI");
        throw new AssertionError("unreachable");
    }

    /** Writes the configuration (scrape every second, evaluate rules every second) and starts the server. */
    PrometheusServer start(Path rules, List<Target> targets) throws IOException {
        StringBuilder config = new StringBuilder("""
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                  evaluation_interval: 1s
                rule_files: ['%s']
                scrape_configs:
                  - job_name: berth
                    metrics_path: /actuator/prometheus
                    static_configs:
                """.formatted(rules.toAbsolutePath()));
        for (Target t : targets) {
            config.append("      - targets: ['").append(t.address()).append("']\n")
                    .append("        labels: {node: '").append(t.node()).append("', datacenter: '").append(t.datacenter()).append("'}\n");
        }
        Path configFile = dir.resolve("prometheus.yml");
        Files.writeString(configFile, config);
        process = new ProcessBuilder(binary("prometheus").toString(), "--config.file=" + configFile,
                "--storage.tsdb.path=" + dir.resolve("tsdb"), "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        return this;
    }

    boolean isReady() throws IOException {
        if (!process.isAlive()) {
            throw new IllegalStateException("prometheus exited: " + Files.readString(dir.resolve("prometheus.log")));
        }
        try {
            return get("/-/ready").statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    /** An instant query; the {@code data.result} vector (fails the test on a query error). */
    List<Series> query(String promql) throws IOException {
        HttpResponse<String> r = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        JsonNode body = json.readTree(r.body());
        if (r.statusCode() != 200 || !"success".equals(body.path("status").asString())) {
            fail("query failed (" + r.statusCode() + "): " + promql + "\n" + r.body());
        }
        List<Series> out = new ArrayList<>();
        for (JsonNode s : body.path("data").path("result")) {
            Map<String, String> labels = new java.util.TreeMap<>();
            s.path("metric").properties().forEach((e) -> labels.put(e.getKey(), e.getValue().asString()));
            out.add(new Series(labels, Double.parseDouble(s.path("value").get(1).asString())));
        }
        return out;
    }

    /** The values of a label across the series that match {@code match}. */
    List<String> labelValues(String label, String match) throws IOException {
        HttpResponse<String> r = get("/api/v1/label/" + label + "/values?match[]=" + URLEncoder.encode(match, StandardCharsets.UTF_8));
        List<String> out = new ArrayList<>();
        json.readTree(r.body()).path("data").forEach((v) -> out.add(v.asString()));
        return out;
    }

    record Series(Map<String, String> labels, double value) {

        String label(String name) {
            return labels.get(name);
        }
    }

    private HttpResponse<String> get(String path) throws IOException {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }
}
