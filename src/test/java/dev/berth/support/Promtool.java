package dev.berth.support;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

import static org.assertj.core.api.Assertions.fail;

/**
 * Runs Prometheus' {@code promtool check metrics} (Debian package {@code prometheus}) on an exposition. When promtool
 * is not installed the calling test fails under {@code CI=true} and is skipped elsewhere.
 */
public final class Promtool {

    private Promtool() {
    }

    /** The outcome: promtool's exit code (0 ok, 1 parse error, 3 lint problems) and everything it printed. */
    public record Result(int exitCode, String output) {
    }

    public static Path locate() {
        return locate(System.getenv());
    }

    /** Finds promtool on {@code env}'s PATH; fails under {@code CI=true}, aborts (skips) otherwise when absent. */
    static Path locate(java.util.Map<String, String> env) {
        String path = env.getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(":")) {
            Path candidate = Path.of(dir, "promtool");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        if ("true".equalsIgnoreCase(env.get("CI"))) {
            fail("promtool not found on PATH but CI=true: install the Debian package 'prometheus'");
        }
        Assumptions.abort("promtool not installed (Debian package 'prometheus'); skipped outside CI");
        throw new AssertionError("unreachable");
    }

    public static Result checkMetrics(String exposition) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(locate().toString(), "check", "metrics").redirectErrorStream(true).start();
        try (OutputStream stdin = process.getOutputStream()) {
            stdin.write(exposition.getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("promtool did not finish within 60 s");
        }
        return new Result(process.exitValue(), output);
    }

    /**
     * {@code promtool test rules} on a unit-test file written to {@code dir}; the test's {@code rule_files} are given by
     * the caller (e.g. the shipped rules file).
     */
    public static Result testRules(java.nio.file.Path dir, String name, String test) throws IOException, InterruptedException {
        java.nio.file.Path file = dir.resolve(name);
        java.nio.file.Files.writeString(file, test);
        Process process = new ProcessBuilder(locate().toString(), "test", "rules", file.toString()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("promtool did not finish within 60 s");
        }
        return new Result(process.exitValue(), output);
    }
}
