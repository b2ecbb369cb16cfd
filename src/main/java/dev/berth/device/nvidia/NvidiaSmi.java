package dev.berth.device.nvidia;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs {@code nvidia-smi} once and parses its CSV. Every call forks one process, bounded by a timeout. */
class NvidiaSmi {

    private final String executable;

    private final Duration timeout;

    NvidiaSmi(String executable, Duration timeout) {
        this.executable = executable;
        this.timeout = timeout;
    }

    List<SmiGpu> query() throws IOException, InterruptedException {
        Process process = new ProcessBuilder(executable, "--query-gpu=" + String.join(",", SmiGpu.FIELDS),
                "--format=csv,noheader,nounits").redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        try {
            CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readQuietly(process.getErrorStream()),
                    Thread::startVirtualThread);
            CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> readQuietly(process.getInputStream()),
                    Thread::startVirtualThread);
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IOException(executable + " did not finish within " + timeout);
            }
            if (process.exitValue() != 0) {
                throw new IOException(executable + " exited with " + process.exitValue() + ": " + stderr.join().strip());
            }
            List<SmiGpu> gpus = new ArrayList<>();
            for (String line : stdout.join().split("\n")) {
                if (!line.isBlank()) {
                    try {
                        gpus.add(SmiGpu.parse(line));
                    }
                    catch (IllegalArgumentException ex) {
                        throw new IOException(ex.getMessage(), ex);
                    }
                }
            }
            return gpus;
        }
        finally {
            process.destroyForcibly();
        }
    }

    private static String readQuietly(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            return "";
        }
    }
}
