package dev.berth.driver.exec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Nomad's {@code lookupBin} order, as raw_exec: {@code local/<bin>}, {@code <taskDir>/<bin>}, an absolute path, {@code $PATH}. */
final class ProgramLookup {

    private ProgramLookup() {
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
        if (bin.contains("/") || pathVariable == null) {
            return Optional.empty();
        }
        for (String dir : pathVariable.split(":")) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir).resolve(bin);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate.toAbsolutePath());
                }
            }
        }
        return Optional.empty();
    }
}
