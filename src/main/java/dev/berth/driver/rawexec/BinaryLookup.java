package dev.berth.driver.rawexec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds a task's program the way Nomad's {@code lookupBin} does (§8.1), in order: {@code <taskDir>/local/<bin>},
 * {@code <taskDir>/<bin>}, {@code <bin>} itself when absolute, then each directory of {@code $PATH} (executable files only).
 */
final class BinaryLookup {

    private BinaryLookup() {
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
