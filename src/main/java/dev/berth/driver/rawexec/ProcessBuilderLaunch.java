package dev.berth.driver.rawexec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** raw_exec's JDK launch path, where {@link SpawnedChildren} is not available: one JDK process-reaper thread per live task. */
final class ProcessBuilderLaunch {

    private ProcessBuilderLaunch() {
    }

    /** Starts {@code command}; {@code exitValue} completes with its exit value. Returns its pid. */
    static int start(List<String> command, Map<String, String> env, Path workDir,
            TaskOutputs.Target out, TaskOutputs.Target err, CompletableFuture<Integer> exitValue) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().clear();
        pb.environment().putAll(env);
        if (workDir != null) {
            pb.directory(workDir.toFile());
        }
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.redirectOutput(redirectOf(out));
        pb.redirectError(redirectOf(err));
        Process process = pb.start();
        process.onExit().thenAccept(p -> exitValue.complete(p.exitValue()));
        return Math.toIntExact(process.pid());
    }

    private static ProcessBuilder.Redirect redirectOf(TaskOutputs.Target target) {
        return switch (target) {
            case TaskOutputs.Target.AppendFile(Path path) -> ProcessBuilder.Redirect.appendTo(path.toFile());
            // The shim opens the FIFO itself (read-write); until then the stream points at /dev/null.
            case TaskOutputs.Target.Fifo fifo -> ProcessBuilder.Redirect.DISCARD;
            case TaskOutputs.Target.Discard discard -> ProcessBuilder.Redirect.DISCARD;
        };
    }
}
