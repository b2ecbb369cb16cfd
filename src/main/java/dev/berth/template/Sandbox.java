package dev.berth.template;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Where a task's templates may read and write: paths relative to the task directory that stay inside the allocation
 * directory (so {@code ../alloc/x} is fine), and never through a symbolic link that leads out of it: the deepest
 * existing ancestor of a path is resolved and must lie inside.
 */
final class Sandbox {

    private final Path taskDir;
    private final Path allocDir;

    Sandbox(Path taskDir, Path allocDir) {
        this.taskDir = taskDir.toAbsolutePath().normalize();
        this.allocDir = allocDir.toAbsolutePath().normalize();
    }

    /** The host path of {@code relative}; an absolute path is taken inside the task directory too. */
    Path resolve(String relative) throws IOException {
        String rel = relative.startsWith("/") ? relative.substring(1) : relative;
        Path p = taskDir.resolve(rel).normalize();
        if (!p.startsWith(allocDir)) {
            throw new IOException("path escapes the allocation directory: " + relative);
        }
        Path existing = p;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        if (existing != null && Files.exists(existing) && !existing.toRealPath().startsWith(allocDir.toRealPath())) {
            throw new IOException("path resolves outside of the allocation directory through a link: " + relative);
        }
        return p;
    }
}
