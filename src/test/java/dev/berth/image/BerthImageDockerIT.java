package dev.berth.image;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.ImageFromDockerfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Builds the Berth image from the packaged jar (failsafe, after {@code package}) on the local, registry-free base
 * {@code berth-test/jre:25} (.ci/docker-setup.sh) and runs it the way an operator would on a VM: host network,
 * loopback bind with ACLs off, a port other than 4646 and a temporary data dir mounted at /var/lib/berth.
 */
class BerthImageDockerIT {

    private static final String IMAGE = "berth-test/berth:it";

    @TempDir
    static Path dataDir;

    private static GenericContainer<?> berth;
    private static int port;
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @BeforeAll
    static void startImage() throws IOException {
        Path jar = Path.of(System.getProperty("berth.jar", "target/berth-0.1.0.jar"));
        assertThat(jar).as("run after `package` (failsafe does)").exists();
        // prefer the shipped docker/Dockerfile; the test-only one stands in until it is on this branch
        Path dockerfile = Files.exists(Path.of("docker/Dockerfile")) ? Path.of("docker/Dockerfile") : Path.of("src/test/docker/berth/Dockerfile");
        System.out.println("BerthImageDockerIT builds " + dockerfile.toAbsolutePath() + " with " + jar);
        ImageFromDockerfile image = new ImageFromDockerfile(IMAGE, false)
                .withFileFromPath("target/" + jar.getFileName(), jar)
                .withFileFromPath("Dockerfile", dockerfile)
                .withFileFromPath("bin/berth", Path.of("bin/berth"))
                .withFileFromPath("bin/jvm.options", Path.of("bin/jvm.options"))
                .withDockerfilePath("Dockerfile")
                .withBuildArg("BUILDER_IMAGE", "berth-test/jre:25")
                .withBuildArg("BASE_IMAGE", "berth-test/jre:25")
                // the training start would add 20 s to several minutes on a loaded CI machine; perf/footprint.sh covers it
                .withBuildArg("AOT", "false")
                // nothing in the build may reach a registry
                .withBuildImageCmdModifier(cmd -> cmd.withNetworkMode("none").withPull(false));
        port = freePort();
        berth = new GenericContainer<>(image)
                .withImagePullPolicy(name -> false)
                .withNetworkMode("host")
                .withEnv("SERVER_ADDRESS", "127.0.0.1")
                .withEnv("SERVER_PORT", Integer.toString(port))
                .withEnv("BERTH_ACL_ENABLED", "false")
                .withEnv("BERTH_DATA_DIR", "/var/lib/berth")
                .withEnv("BERTH_DRIVERS_RAWEXEC_ENABLED", "true")
                .withFileSystemBind(dataDir.toString(), "/var/lib/berth", BindMode.READ_WRITE)
                .waitingFor(Wait.forLogMessage(".*Started Application in .*", 1).withStartupTimeout(Duration.ofMinutes(3)));
        berth.start();
    }

    @AfterAll
    static void stopImage() {
        if (berth != null) {
            berth.stop();
        }
        // with Ryuk off Testcontainers never deletes built images; each run would leave a ~280 MB dangling one
        try {
            DockerClientFactory.instance().client().removeImageCmd(IMAGE).withForce(true).exec();
        } catch (RuntimeException e) {
            System.err.println("could not remove " + IMAGE + ": " + e);
        }
    }

    @Test
    void becomesReadyOnTheConfiguredLoopbackPort() {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            HttpResponse<String> ready = get("/actuator/health/readiness");
            assertThat(ready.statusCode()).isEqualTo(200);
            assertThat(ready.body()).contains("\"UP\"");
        });
        assertThat(berth.getLogs()).contains("port " + port).doesNotContain("port 4646");
    }

    @Test
    void servesPrometheusMetrics() throws Exception {
        HttpResponse<String> metrics = get("/actuator/prometheus");

        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("# TYPE jvm_memory_used_bytes gauge");
    }

    @Test
    void keepsItsStateInTheMountedDataDir() {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            try (var files = Files.walk(dataDir)) {
                return files.anyMatch(p -> p.getFileName().toString().startsWith("berth.mv.db"));
            }
        });
    }

    @Test
    void runsARawExecAllocationInsideTheImage() throws Exception {
        String id = java.util.UUID.randomUUID().toString();
        String task = """
                {"Name":"hello","Driver":"raw_exec","Config":{"command":"/bin/sh","args":["-c","echo hello-from-berth-image; while :; do sleep 1; done"]},
                 "Resources":{"CPU":100,"MemoryMB":64}}""";
        String alloc = """
                {"ID":"%s","Name":"img.app[0]","JobID":"img","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"app",
                 "Job":{"ID":"img","Name":"img","Type":"service","TaskGroups":[{"Name":"app","Count":1,"Tasks":[%s]}]}}"""
                .formatted(id, task);

        HttpResponse<String> put = send("PUT", "/v1/client/allocation/" + id, alloc);
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(get("/v1/allocation/" + id).body()).contains("\"ClientStatus\":\"running\""));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(get("/v1/client/fs/cat/" + id + "?path=alloc/logs/hello.stdout.0").body()).contains("hello-from-berth-image"));
        assertThat(send("DELETE", "/v1/client/allocation/" + id, null).statusCode()).isBetween(200, 204);
    }

    private static HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json")
                        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
