package dev.berth.restore;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.awaitility.Awaitility.await;

/**
 * A real Berth agent in its own JVM (so it can be SIGKILLed), on a loopback port and a data dir the test owns. Runs the
 * application from the test's classpath (main classes and dependencies, without the test classes).
 */
final class AgentProcess implements AutoCloseable {

    final Path dataDir;
    final int port;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final JsonMapper json = JsonMapper.builder().build();
    private Process process;
    private int starts;
    /** More command-line arguments for every start (e.g. enabling another driver). */
    final List<String> extraArgs = new ArrayList<>();

    AgentProcess(Path dataDir) throws IOException {
        this.dataDir = dataDir;
        this.port = freePort();
    }

    /** Starts the agent and waits until readiness accepts traffic. */
    AgentProcess start() throws IOException {
        starts++;
        String javaBin = ProcessHandle.current().info().command().orElse("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String mainCp = Arrays.stream(cp.split(java.io.File.pathSeparator))
                .filter(e -> !e.endsWith("test-classes") && !e.endsWith("test-classes/"))
                .collect(Collectors.joining(java.io.File.pathSeparator));
        List<String> cmd = new ArrayList<>(List.of(javaBin, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Xshare:auto", "--enable-native-access=ALL-UNNAMED", "-cp", mainCp, "dev.berth.Application",
                "--server.port=" + port, "--server.address=127.0.0.1", "--berth.data-dir=" + dataDir,
                "--berth.drivers.raw-exec.enabled=true", "--berth.drivers.mock.enabled=true", "--berth.acl.enabled=false",
                // no tmpfs mounts for secrets/private: JUnit could not delete the data dir with mount points in it
                "--berth.alloc.secrets-tmpfs=false", "--spring.main.banner-mode=off"));
        cmd.addAll(extraArgs);
        Files.createDirectories(dataDir);
        Path log = dataDir.resolve("agent-" + starts + ".log");
        process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Process p = process;
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(200)).until(() -> {
            if (!p.isAlive()) {
                throw new IllegalStateException("agent exited with " + p.exitValue() + "; log: " + Files.readString(log));
            }
            return readiness() == 200;
        });
        return this;
    }

    Path log() {
        return dataDir.resolve("agent-" + starts + ".log");
    }

    private int readiness() {
        try {
            return send("GET", "/actuator/health/readiness", null).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    long pid() {
        return process.pid();
    }

    /** SIGTERM: Spring's graceful shutdown (runners end, tasks keep running). */
    void stopGracefully() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException("agent did not stop within 60 s of SIGTERM");
        }
    }

    /** SIGKILL: nothing of the agent runs any more. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    JsonNode alloc(String id) throws IOException, InterruptedException {
        HttpResponse<String> r = send("GET", "/v1/allocation/" + id, null);
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET alloc " + id + ": " + r.statusCode() + " " + r.body());
        }
        return json.readTree(r.body());
    }

    JsonNode allocs() throws IOException, InterruptedException {
        return json.readTree(send("GET", "/v1/client/allocations", null).body());
    }

    void put(String id, String body) throws IOException, InterruptedException {
        HttpResponse<String> r = send("PUT", "/v1/client/allocation/" + id, body);
        if (r.statusCode() != 200) {
            throw new IllegalStateException("PUT " + id + ": " + r.statusCode() + " " + r.body());
        }
    }

    /** The live launch shims (session leaders) whose exit file is under this agent's data dir: pid → exit file. */
    List<Shim> shims() {
        return shimsUnder(dataDir);
    }

    record Shim(long pid, String exitFile) {
    }

    static List<Shim> shimsUnder(Path dataDir) {
        String prefix = dataDir.toAbsolutePath().normalize() + "/";
        List<Shim> out = new ArrayList<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path proc : procs) {
                try {
                    String[] argv = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8).split("\0");
                    String stat = Files.readString(proc.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long pid = Long.parseLong(proc.getFileName().toString());
                    if (f[0].equals("Z") || Long.parseLong(f[2]) != pid) {
                        continue;
                    }
                    for (int i = 0; i + 1 < argv.length; i++) {
                        if ("berth-task".equals(argv[i]) && argv[i + 1].startsWith(prefix)) {
                            out.add(new Shim(pid, argv[i + 1]));
                        }
                    }
                } catch (IOException | RuntimeException gone) {
                    // process went away
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    /** Last resort after a test: SIGKILL every process group of a shim under the data dir. */
    static void killAllShims(Path dataDir) {
        for (Shim s : shimsUnder(dataDir)) {
            try {
                new ProcessBuilder("kill", "-9", "--", "-" + s.pid()).start().waitFor(5, TimeUnit.SECONDS);
            } catch (IOException e) {
                // best effort
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        killAllShims(dataDir);
        keepLogs();
    }

    /** Copies the agent logs to {@code target/restore-it-logs/} (the data dir is a temp dir that JUnit deletes). */
    private void keepLogs() {
        try (DirectoryStream<Path> logs = Files.newDirectoryStream(dataDir, "agent-*.log")) {
            Path out = Path.of("target", "restore-it-logs", dataDir.getParent().getFileName().toString());
            Files.createDirectories(out);
            for (Path l : logs) {
                Files.copy(l, out.resolve(l.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            // diagnostics only
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return s.getLocalPort();
        }
    }
}
