package dev.berth.support;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A real Berth agent in its own JVM on a loopback port with its own data dir, run from the test's classpath (main
 * classes and dependencies). Use it where a test needs several agents at once (a fleet scraped by Prometheus).
 * {@link #start()} does not wait; {@link #isReady()} tells when readiness accepts traffic.
 */
public final class AgentJvm implements AutoCloseable {

    private final Path dataDir;
    private final int port;
    private final List<String> args;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<String> allocIds = new ArrayList<>();
    private Process process;

    public AgentJvm(Path dataDir, String... args) throws IOException {
        this.dataDir = dataDir;
        this.port = freePort();
        this.args = List.of(args);
    }

    public int port() {
        return port;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public Path log() {
        return dataDir.resolve("agent.log");
    }

    public AgentJvm start() throws IOException {
        String javaBin = ProcessHandle.current().info().command().orElseThrow();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String mainCp = Arrays.stream(cp.split(File.pathSeparator))
                .filter((e) -> !e.endsWith("test-classes") && !e.endsWith("test-classes/"))
                .collect(Collectors.joining(File.pathSeparator));
        List<String> cmd = new ArrayList<>(List.of(javaBin, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Xshare:auto", "--enable-native-access=ALL-UNNAMED", "-cp", mainCp, "dev.berth.Application",
                "--server.port=" + port, "--server.address=127.0.0.1", "--berth.data-dir=" + dataDir.resolve("data"),
                "--berth.drivers.raw-exec.enabled=true", "--berth.acl.enabled=false", "--berth.alloc.secrets-tmpfs=false",
                "--spring.main.banner-mode=off"));
        cmd.addAll(args);
        Files.createDirectories(dataDir);
        process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log().toFile()).start();
        return this;
    }

    /** True once readiness answers 200; throws when the JVM died (with its log). */
    public boolean isReady() throws IOException {
        if (!process.isAlive()) {
            throw new IllegalStateException("agent on port " + port + " exited with " + process.exitValue() + "; log:\n"
                    + Files.readString(log()));
        }
        try {
            return send("GET", "/actuator/health/readiness", null).statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    public HttpResponse<String> send(String method, String path, String body) throws IOException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl() + path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** PUTs an allocation; {@link #close()} destroys it again (tasks outlive a stopped agent by design). */
    public HttpResponse<String> putAlloc(String id, String json) throws IOException {
        HttpResponse<String> r = send("PUT", "/v1/client/allocation/" + id, json);
        if (r.statusCode() != 200) {
            throw new IllegalStateException("PUT alloc " + id + ": " + r.statusCode() + " " + r.body());
        }
        allocIds.add(id);
        return r;
    }

    /** Destroys every allocation this test put (kills their tasks). */
    public void destroyAllocs() {
        for (String id : allocIds) {
            try {
                send("DELETE", "/v1/client/allocation/" + id, null);
            } catch (IOException | RuntimeException e) {
                // best effort: the agent may be gone already
            }
        }
        allocIds.clear();
    }

    /** SIGKILL, as a crashed agent. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            destroyAllocs();
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return s.getLocalPort();
        }
    }
}
