package dev.berth.alloc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * An allocation directory (§5.9, minimal): {@code <root>/<allocId>/alloc/{logs,tmp,data}} shared by the tasks and one
 * {@code <task>/{local,secrets,tmp,private}} per task. Safe for concurrent use: building, task dirs and destroy are
 * guarded by one read-write lock (task dirs share the read lock; destroy is exclusive).
 */
public final class AllocDir {

    private final Path dir;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

    public AllocDir(Path allocsRoot, String allocId) {
        this.dir = allocsRoot.resolve(allocId);
    }

    public Path path() {
        return dir;
    }

    public Path sharedDir() {
        return dir.resolve("alloc");
    }

    public Path logsDir() {
        return sharedDir().resolve("logs");
    }

    public Path taskDir(String task) {
        return dir.resolve(task);
    }

    public Path stdout(String task) {
        return logsDir().resolve(task + ".stdout.0");
    }

    public Path stderr(String task) {
        return logsDir().resolve(task + ".stderr.0");
    }

    /** Creates the alloc-level directories. Idempotent. */
    public void build() {
        lock.readLock().lock();
        try {
            mkdir(dir, 0755);
            mkdir(sharedDir(), 0755);
            mkdir(logsDir(), 0777);
            mkdir(sharedDir().resolve("tmp"), 0777);
            mkdir(sharedDir().resolve("data"), 0777);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Creates one task's directories (after {@link #build()}). Idempotent. */
    public Path buildTask(String task) {
        lock.readLock().lock();
        try {
            Path t = taskDir(task);
            mkdir(t, 0777);
            mkdir(t.resolve("local"), 0777);
            mkdir(t.resolve("tmp"), 01777);
            // Nomad mounts tmpfs here; a plain directory until the exec/isolation issue lands.
            mkdir(t.resolve("secrets"), 0777);
            mkdir(t.resolve("private"), 0777);
            return t;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Removes the whole directory. Idempotent; a missing directory is fine. */
    public void destroy() throws IOException {
        lock.writeLock().lock();
        try {
            if (!Files.exists(dir)) {
                return;
            }
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
                    if (exc instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw exc;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } finally {
            lock.writeLock().unlock();
        }
    }

    private static void mkdir(Path p, int mode) {
        try {
            Files.createDirectories(p);
            // Set explicitly: createDirectories is subject to the umask, and the sticky bit needs the unix view.
            Files.setAttribute(p, "unix:mode", mode);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + p + ": " + e.getMessage(), e);
        }
    }
}
