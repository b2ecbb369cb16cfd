package dev.berth.driver.rawexec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import dev.berth.driver.DriverException;
import dev.berth.driver.TaskConfig;

/**
 * Finds a task's program the way Nomad's {@code lookupBin} does, in order: {@code <taskDir>/local/<bin>},
 * {@code <taskDir>/<bin>}, {@code <bin>} itself when absolute, then each directory of {@code $PATH} (executable files only).
 */
public final class BinaryLookup {

    private BinaryLookup() {
    }

    /**
     * The task's program, found with the task's {@code PATH} (the agent's when the task sets none).
     *
     * @throws DriverException (not recoverable) when it is nowhere, with Nomad's message
     */
    public static Path require(String bin, TaskConfig task) throws DriverException {
        String path = task.env().getOrDefault("PATH", System.getenv("PATH"));
        return find(bin, task.taskDir(), path).orElseThrow(() -> new DriverException(
                "file " + bin + " not found under path " + task.taskDir(), false));
    }

    static Optional<Path> find(String bin, Path taskDir, String pathVariable) {
        if (taskDir != null && !bin.startsWith("/")) {
            for (Path candidate : new Path[] {taskDir.resolve("local").resolve(bin), taskDir.resolve(bin)}) {
                if (Files.exists(candidate)) {
                    return Optional.of(candidate.toAbsolutePath());
                }
            }
        }
        Path given = Path.of(bin);
        if (given.isAbsolute()) {
            return Files.exists(given) ? Optional.of(given) : Optional.empty();
        }
        if (bin.contains("/")) {
            // Like exec.LookPath: a relative path with a slash is not searched on $PATH.
            return Optional.empty();
        }
        if (pathVariable == null || pathVariable.isEmpty()) {
            return Optional.empty();
        }
        for (String dir : pathVariable.split(":")) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir).resolve(bin);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate.toAbsolutePath());
            }
        }
        return Optional.empty();
    }
}
