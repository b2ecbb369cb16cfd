package dev.berth.alloc.fs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Locale;

import dev.berth.alloc.fs.FsAccessException.Kind;

/**
 * Resolves a client-supplied path inside one allocation directory, or refuses it. Stricter than Nomad's
 * {@code PathEscapesAllocDir}: the lexical check ({@code ..}) and the symlink check both run, the symlink check resolves
 * the deepest existing ancestor (so a symlinked parent directory is caught even when the file below it does not
 * exist yet), and an escape is a 403, never a 500. A path that does not exist yet is allowed so followers can wait for
 * it. A leading {@code /} means the root of the allocation directory, as in Nomad ({@code ?path=/alloc/logs}).
 */
public final class AllocPathGuard {

    /** Longest path accepted (Linux PATH_MAX). */
    static final int MAX_PATH = 4096;

    private final Path root;
    private final Path realRoot;

    /** @param allocDir the allocation directory; must exist */
    public AllocPathGuard(Path allocDir) throws IOException {
        this.root = allocDir.toAbsolutePath().normalize();
        this.realRoot = root.toRealPath();
    }

    public Path root() {
        return root;
    }

    /** The host path for {@code requested}, guaranteed to stay inside the allocation directory. */
    public Path resolve(String requested) {
        String path = requested == null || requested.isEmpty() ? "/" : requested;
        if (path.indexOf('\0') >= 0) {
            throw new FsAccessException(Kind.MALFORMED, "path must not contain NUL bytes");
        }
        if (path.length() > MAX_PATH) {
            throw new FsAccessException(Kind.MALFORMED, "path is longer than " + MAX_PATH + " characters");
        }
        String relative = path;
        while (relative.startsWith("/")) {
            relative = relative.substring(1);
        }
        Path candidate;
        try {
            candidate = root.resolve(relative).normalize();
        } catch (InvalidPathException ex) {
            throw new FsAccessException(Kind.MALFORMED, "invalid path: " + ex.getReason());
        }
        if (!candidate.startsWith(root)) {
            throw escape();
        }
        Path existing = candidate;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            throw escape();
        }
        try {
            Path real = existing.toRealPath();
            if (!real.startsWith(realRoot)) {
                throw escape();
            }
        } catch (IOException ex) {
            // a dangling symlink: where it points cannot be checked, so it is refused
            throw escape();
        }
        return candidate;
    }

    /**
     * Like {@link #resolve} for reading file contents: also refuses anything under a task's {@code secrets/} or
     * {@code private/} directory.
     */
    public Path resolveForRead(String requested) {
        Path path = resolve(requested);
        refuseProtected(root.relativize(path), requested);
        if (Files.exists(path)) {
            try {
                // a symlink elsewhere in the alloc dir must not open a way into secrets/ or private/
                refuseProtected(realRoot.relativize(path.toRealPath()), requested);
            } catch (IOException ex) {
                throw new FsAccessException(Kind.NOT_FOUND, "file not found: " + requested);
            }
        }
        return path;
    }

    private static void refuseProtected(Path rel, String requested) {
        if (rel.getNameCount() >= 2 && !rel.getName(0).toString().equals("alloc")) {
            String second = rel.getName(1).toString().toLowerCase(Locale.ROOT);
            if (second.equals("secrets") || second.equals("private")) {
                String what = second.equals("secrets") ? "secret" : "private";
                throw new FsAccessException(Kind.FORBIDDEN, "Reading " + what + " file prohibited: " + requested);
            }
        }
    }

    /** The path relative to the allocation directory, with {@code /} separators. */
    public String relative(Path path) {
        return root.relativize(path).toString();
    }

    private static FsAccessException escape() {
        return new FsAccessException(Kind.ESCAPE, "Path escapes the alloc directory");
    }
}
