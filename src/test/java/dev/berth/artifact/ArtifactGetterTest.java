package dev.berth.artifact;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.util.unit.DataSize;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.berth.alloc.spec.TaskArtifactSpec;
import dev.berth.alloc.task.Interpolator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Fetching one artifact from an HTTP server on loopback (and from local files), placed as go-getter places it. */
class ArtifactGetterTest {

    static final String SCRIPT = "#!/bin/sh\necho fetched\n";

    @TempDir
    Path tmp;

    HttpServer server;
    final Map<String, byte[]> files = new ConcurrentHashMap<>();
    final Map<String, String> seen = new ConcurrentHashMap<>();
    final CountDownLatch release = new CountDownLatch(1);
    Path allocDir;
    Path taskDir;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::serve);
        server.start();
        allocDir = Files.createDirectories(tmp.resolve("alloc-1"));
        Files.createDirectories(allocDir.resolve("alloc"));
        taskDir = Files.createDirectories(allocDir.resolve("web"));
        Files.createDirectories(taskDir.resolve("local"));
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
    }

    private void serve(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        seen.put("query", String.valueOf(ex.getRequestURI().getRawQuery()));
        seen.put("token", String.valueOf(ex.getRequestHeaders().getFirst("X-Token")));
        if (path.equals("/moved")) {
            ex.getResponseHeaders().add("Location", "/run.sh");
            ex.sendResponseHeaders(302, -1);
        } else if (path.equals("/stall")) {
            ex.sendResponseHeaders(200, 100);
            ex.getResponseBody().write('x');
            ex.getResponseBody().flush();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } else if (files.containsKey(path)) {
            byte[] body = files.get(path);
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        } else {
            ex.sendResponseHeaders(404, -1);
        }
        ex.close();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    static TaskArtifactSpec artifact(String source, String destination, String mode, Map<String, String> options) {
        return new TaskArtifactSpec(source, options, Map.of("X-Token", "${TOKEN}"), mode, false, destination, false);
    }

    void get(TaskArtifactSpec spec) throws Exception {
        get(spec, ArtifactProperties.defaults());
    }

    void get(TaskArtifactSpec spec, ArtifactProperties props) throws Exception {
        Interpolator env = new Interpolator(Map.of("TOKEN", "t0k3n", "PORT", Integer.toString(server.getAddress().getPort()),
                "NAME", "run"), Map.of());
        new ArtifactGetter(props).get(ArtifactRequest.resolve(spec, env, taskDir, allocDir), taskDir, allocDir);
    }

    @Test
    void anyModePutsTheFileUnderItsNameInTheDestinationWithInterpolatedSourceHeadersAndOptions() throws Exception {
        files.put("/run.sh", SCRIPT.getBytes(StandardCharsets.UTF_8));
        get(artifact("http://127.0.0.1:${PORT}/${NAME}.sh", null, null, Map.of("version", "${NAME}-2")));
        assertThat(taskDir.resolve("local/run.sh")).hasContent(SCRIPT.strip());
        assertThat(seen).containsEntry("token", "t0k3n").containsEntry("query", "version=run-2");
        // the work directory inside the allocation is gone
        try (var s = Files.list(allocDir)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("alloc", "web");
        }
    }

    @Test
    void fileModeWritesTheDestinationPathAndTheDefaultIsLocalSlashTheSourceName() throws Exception {
        files.put("/run.sh", SCRIPT.getBytes(StandardCharsets.UTF_8));
        get(artifact(url("/run.sh"), "../alloc/shared/start.sh", "file", Map.of()));
        assertThat(allocDir.resolve("alloc/shared/start.sh")).hasContent(SCRIPT.strip());
        get(artifact(url("/run.sh"), null, "file", Map.of()));
        assertThat(taskDir.resolve("local/run.sh")).hasContent(SCRIPT.strip());
    }

    @ParameterizedTest
    @CsvSource({"md5,MD5", "sha1,SHA-1", "sha256,SHA-256", "sha512,SHA-512"})
    void aMatchingChecksumOfEachTypePassesAndAMismatchIsRefused(String type, String algorithm) throws Exception {
        byte[] body = SCRIPT.getBytes(StandardCharsets.UTF_8);
        files.put("/run.sh", body);
        String digest = HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(body));
        get(artifact(url("/run.sh"), "local/ok", null, Map.of("checksum", type + ":" + digest)));
        assertThat(taskDir.resolve("local/ok/run.sh")).exists();
        // the checksum is not sent to the server
        assertThat(seen.get("query")).isEqualTo("null");

        String wrong = digest.substring(0, digest.length() - 1) + (digest.endsWith("0") ? "1" : "0");
        assertThatExceptionOfType(ArtifactException.class)
                .isThrownBy(() -> get(artifact(url("/run.sh"), "local/bad", null, Map.of("checksum", type + ":" + wrong))))
                .withMessageContaining("checksums did not match");
        assertThat(taskDir.resolve("local/bad")).doesNotExist();
    }

    @Test
    void archivesUnpackByExtensionUnlessArchiveIsFalse() throws Exception {
        byte[] tgz = TestArchives.gzip(TestArchives.tar("app/run.sh", SCRIPT));
        files.put("/app.tar.gz", tgz);
        files.put("/app.zip", TestArchives.zip("app/run.sh", SCRIPT));
        get(artifact(url("/app.tar.gz"), "local/t", null, Map.of()));
        get(artifact(url("/app.zip"), "local/z", "dir", Map.of()));
        get(artifact(url("/app.tar.gz"), "local/packed", null, Map.of("archive", "false")));
        assertThat(taskDir.resolve("local/t/app/run.sh")).hasContent(SCRIPT.strip()).isExecutable();
        assertThat(taskDir.resolve("local/z/app/run.sh")).hasContent(SCRIPT.strip()).isExecutable();
        assertThat(taskDir.resolve("local/packed/app.tar.gz")).hasBinaryContent(tgz);
    }

    @Test
    void aRedirectIsFollowed() throws Exception {
        files.put("/run.sh", SCRIPT.getBytes(StandardCharsets.UTF_8));
        get(artifact(url("/moved"), "local/r/run.sh", "file", Map.of()));
        assertThat(taskDir.resolve("local/r/run.sh")).hasContent(SCRIPT.strip());
    }

    @Test
    void badAnswersSizesAndStallsAreErrors() {
        assertThatExceptionOfType(ArtifactException.class).isThrownBy(() -> get(artifact(url("/missing"), null, null, Map.of())))
                .withMessageContaining("bad response code: 404");
        files.put("/big", new byte[64]);
        ArtifactProperties small = new ArtifactProperties(Duration.ofMillis(300), DataSize.ofBytes(10), 10, DataSize.ofBytes(10), List.of());
        assertThatExceptionOfType(ArtifactException.class).isThrownBy(() -> get(artifact(url("/big"), null, null, Map.of()), small))
                .withMessageContaining("exceeds the limit of 10 bytes");
        ArtifactProperties quick = new ArtifactProperties(Duration.ofMillis(300), DataSize.ofMegabytes(1), 10, DataSize.ofBytes(10), List.of());
        assertThatExceptionOfType(ArtifactException.class).isThrownBy(() -> get(artifact(url("/stall"), null, null, Map.of()), quick))
                .withMessageContaining("read timeout of PT0.3S reached");
        files.put("/run.sh", SCRIPT.getBytes(StandardCharsets.UTF_8));
        assertThatExceptionOfType(ArtifactException.class).isThrownBy(() -> get(artifact(url("/run.sh"), null, "dir", Map.of())))
                .withMessageContaining("mode \"dir\" needs an archive");
    }

    @Test
    void aDestinationThatEscapesAfterInterpolationIsRefused() {
        TaskArtifactSpec spec = new TaskArtifactSpec(url("/run.sh"), Map.of(), Map.of(), "file", false, "../../${NAME}", false);
        assertThatExceptionOfType(ArtifactException.class).isThrownBy(() -> get(spec))
                .withMessage("artifact destination path escapes alloc directory");
    }

    @Test
    void aLinkInTheTaskDirectoryCannotCarryAnArtifactOutOfTheSandbox() throws Exception {
        Path outside = Files.createDirectories(tmp.resolve("host-etc"));
        Files.createSymbolicLink(taskDir.resolve("local/out"), outside);
        files.put("/run.sh", SCRIPT.getBytes(StandardCharsets.UTF_8));
        assertThatExceptionOfType(ArtifactException.class).isThrownBy(() -> get(artifact(url("/run.sh"), "local/out", null, Map.of())))
                .withMessageContaining("resolves outside of sandbox");
        assertThat(outside.resolve("run.sh")).doesNotExist();
    }

    @Test
    void fileSourcesAreReadOnlyInsideTheAllocationOrAConfiguredRoot() throws Exception {
        Path shared = Files.writeString(allocDir.resolve("alloc/data.txt"), "shared");
        get(artifact(shared.toUri().toString(), "local/copy.txt", "file", Map.of()));
        assertThat(taskDir.resolve("local/copy.txt")).hasContent("shared");

        Path host = Files.createDirectories(tmp.resolve("host"));
        Files.writeString(host.resolve("app.txt"), "host file");
        assertThatExceptionOfType(ArtifactException.class)
                .isThrownBy(() -> get(artifact(host.resolve("app.txt").toUri().toString(), null, null, Map.of())))
                .withMessageContaining("outside the allocation directory");
        ArtifactProperties allowed = new ArtifactProperties(Duration.ofMinutes(1), DataSize.ofMegabytes(1), 10,
                DataSize.ofMegabytes(1), List.of(host));
        get(artifact(host.toUri().toString(), "local/tree", null, Map.of()), allowed);
        assertThat(taskDir.resolve("local/tree/app.txt")).hasContent("host file");
    }
}
