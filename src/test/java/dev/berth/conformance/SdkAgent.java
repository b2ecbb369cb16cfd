package dev.berth.conformance;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;

import static org.awaitility.Awaitility.await;

/**
 * One real Berth agent in its own JVM for the whole conformance suite, on a free loopback port and a throw-away data dir,
 * started from the project's runtime classpath ({@code berth.agent.classpath}, set by the {@code nomad-sdk-conformance}
 * surefire execution): the test JVM carries the SDK's older Jackson 2, the agent the project's own. Stopped (and its data
 * dir removed) when the test JVM exits.
 */
final class SdkAgent {

    private static SdkAgent instance;

    final int port;
    final Path dataDir;
    private final Process process;

    private SdkAgent(int port, Path dataDir, Process process) {
        this.port = port;
        this.dataDir = dataDir;
        this.process = process;
    }

    static synchronized SdkAgent get() throws IOException {
        if (instance == null) {
            instance = start();
        }
        return instance;
    }

    String base() {
        return "http://127.0.0.1:" + port;
    }

    /** The agent's jobs directory ({@code berth.jobs.dir}). */
    Path jobsDir() {
        return dataDir.resolve("jobs.d");
    }

    Path log() {
        return dataDir.resolve("agent.log");
    }

    private static SdkAgent start() throws IOException {
        String classpath = System.getProperty("berth.agent.classpath");
        if (classpath == null || classpath.isBlank()) {
            throw new IllegalStateException("berth.agent.classpath is not set: run through the nomad-sdk-conformance surefire execution");
        }
        int port;
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            port = s.getLocalPort();
        }
        Path dataDir = Files.createTempDirectory("berth-sdk-");
        String javaBin = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = List.of(javaBin, "-Xmx384m", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "--enable-native-access=ALL-UNNAMED", "-cp", classpath, "dev.berth.Application",
                "--server.port=" + port, "--server.address=127.0.0.1", "--berth.data-dir=" + dataDir,
                "--berth.drivers.raw-exec.enabled=true", "--berth.drivers.mock.enabled=true", "--berth.acl.enabled=false",
                "--berth.alloc.secrets-tmpfs=false", "--spring.main.banner-mode=off",
                "--berth.jobs.dir=" + dataDir.resolve("jobs.d"), "--berth.jobs.poll-interval=500ms");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dataDir.resolve("agent.log").toFile()).start();
        SdkAgent agent = new SdkAgent(port, dataDir, p);
        Runtime.getRuntime().addShutdownHook(new Thread(agent::stop));
        HttpClient http = HttpClient.newHttpClient();
        await().atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofMillis(250)).until(() -> {
            if (!p.isAlive()) {
                throw new IllegalStateException("agent exited with " + p.exitValue() + ": " + Files.readString(agent.log()));
            }
            try {
                return http.send(HttpRequest.newBuilder(URI.create(agent.base() + "/actuator/health/readiness")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException e) {
                return false;
            }
        });
        return agent;
    }

    private void stop() {
        process.destroy();
        try {
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            try (var files = Files.walk(dataDir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        } catch (IOException | InterruptedException e) {
            // best effort at JVM exit
        }
    }
}
