package dev.berth.device.nvidia;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs {@code nvidia-smi} and parses its output. Every call forks one process, bounded by a timeout. */
class NvidiaSmi {

    private final String executable;

    private final Duration timeout;

    NvidiaSmi(String executable, Duration timeout) {
        this.executable = executable;
        this.timeout = timeout;
    }

    List<SmiGpu> query() throws IOException, InterruptedException {
        List<SmiGpu> gpus = new ArrayList<>();
        for (String line : lines(run("--query-gpu=" + String.join(",", SmiGpu.FIELDS), "--format=csv,noheader,nounits"))) {
            try {
                gpus.add(SmiGpu.parse(line));
            }
            catch (IllegalArgumentException ex) {
                throw new IOException(ex.getMessage(), ex);
            }
        }
        return gpus;
    }

    /** {@code --query-compute-apps=pid,gpu_uuid,used_memory}: the compute processes of every GPU. */
    List<SmiProcesses.ComputeApp> computeApps() throws IOException, InterruptedException {
        return SmiProcesses.parseComputeApps(run("--query-compute-apps=" + SmiProcesses.COMPUTE_APP_FIELDS,
                "--format=csv,noheader,nounits"));
    }

    /** One sample of {@code nvidia-smi pmon -s u}: SM and memory utilization per (GPU index, pid). */
    java.util.Map<SmiProcesses.PmonKey, SmiProcesses.PmonRow> pmon() throws IOException, InterruptedException {
        return SmiProcesses.parsePmon(run("pmon", "-c", "1", "-s", "u"));
    }

    /** {@code nvidia-smi -L}: GPUs and, under GPUs in MIG mode, their MIG devices. */
    java.util.Map<String, List<SmiMig.MigDevice>> migDevices() throws IOException, InterruptedException {
        return SmiMig.parse(run("-L"));
    }

    private static List<String> lines(String output) {
        List<String> lines = new ArrayList<>();
        for (String line : output.split("\n")) {
            if (!line.isBlank()) {
                lines.add(line);
            }
        }
        return lines;
    }

    /** Runs the tool with {@code args}; its stdout, or an {@link IOException} on a non-zero exit or timeout. */
    private String run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(executable);
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
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
            return stdout.join();
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
