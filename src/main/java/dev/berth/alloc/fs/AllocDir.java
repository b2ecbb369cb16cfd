package dev.berth.alloc.fs;

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
 * An allocation directory, laid out as Nomad's (minimal): {@code <root>/<allocId>/alloc/{logs,tmp,data}} shared by the
 * tasks and one {@code <task>/{local,secrets,tmp,private}} per task. Safe for concurrent use: building, task dirs and
 * destroy are guarded by one read-write lock (task dirs share the read lock; destroy is exclusive).
 */
public final class AllocDir {

    /**
     * Locks are per directory, not per instance: hooks make their own {@code AllocDir} for the same alloc, and a build
     * racing a destroy of the same directory must be serialized whichever instance each uses. Striped, so the table
     * stays bounded however many allocs come and go.
     */
    private static final ReentrantReadWriteLock[] LOCKS = new ReentrantReadWriteLock[64];

    static {
        for (int i = 0; i < LOCKS.length; i++) {
            LOCKS[i] = new ReentrantReadWriteLock();
        }
    }

    private final Path dir;
    private final int stripe;
    private final ReentrantReadWriteLock lock;

    public AllocDir(Path allocsRoot, String allocId) {
        this.dir = allocsRoot.resolve(allocId).toAbsolutePath().normalize();
        this.stripe = Math.floorMod(dir.hashCode(), LOCKS.length);
        this.lock = LOCKS[stripe];
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

    /** {@code <task>/.berth}: agent-private files of a task (its log FIFOs). */
    public Path agentDir(String task) {
        return taskDir(task).resolve(".berth");
    }

    public Path stdoutFifo(String task) {
        return agentDir(task).resolve("stdout.fifo");
    }

    public Path stderrFifo(String task) {
        return agentDir(task).resolve("stderr.fifo");
    }

    /** Where the driver writes the task's stdout: its FIFO when the logs hook made one, else the first log file. */
    public Path stdoutTarget(String task) {
        Path fifo = stdoutFifo(task);
        return dev.berth.driver.logs.Fifo.isFifo(fifo) ? fifo : stdout(task);
    }

    public Path stderrTarget(String task) {
        Path fifo = stderrFifo(task);
        return dev.berth.driver.logs.Fifo.isFifo(fifo) ? fifo : stderr(task);
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
            // TaskDirHook mounts a tmpfs on these two where it can (SecretsTmpfs)
            mkdir(t.resolve("secrets"), 0777);
            mkdir(t.resolve("private"), 0777);
            return t;
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Moves the previous alloc's {@code alloc/data} and each named task's {@code local/} into this dir (Nomad's
     * {@code AllocDir.Move}): a rename, so it needs both on one filesystem. Builds this dir first. The previous dir's
     * content is gone afterwards; a missing source directory is skipped.
     */
    public void moveFrom(AllocDir previous, java.util.Collection<String> tasks) throws IOException {
        // Both dirs exclusively, in stripe order (no deadlock between two moves in opposite directions): a build of the
        // source racing the rename would otherwise find its directories vanishing under it.
        ReentrantReadWriteLock first = LOCKS[Math.min(stripe, previous.stripe)];
        ReentrantReadWriteLock second = LOCKS[Math.max(stripe, previous.stripe)];
        first.writeLock().lock();
        second.writeLock().lock();
        try {
            build();
            moveReplacing(previous.sharedDir().resolve("data"), sharedDir().resolve("data"));
            for (String task : tasks) {
                Path from = previous.taskDir(task).resolve("local");
                if (Files.isDirectory(from)) {
                    buildTask(task);
                    moveReplacing(from, taskDir(task).resolve("local"));
                }
            }
        } finally {
            second.writeLock().unlock();
            first.writeLock().unlock();
        }
    }

    private static void moveReplacing(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            return;
        }
        // the fresh target is empty (just built); a rename cannot replace a directory that has entries
        Files.deleteIfExists(to);
        Files.move(from, to, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Removes the whole directory, after unmounting whatever is mounted under it (the tasks' tmpfs). Idempotent; a missing
     * directory is fine.
     */
    public void destroy() throws IOException {
        lock.writeLock().lock();
        try {
            // Unmount first: deleting would only empty a tmpfs, and its mount point cannot be removed (EBUSY).
            dev.berth.host.Tmpfs.unmountUnder(dir);
            for (int attempt = 1; ; attempt++) {
                try {
                    deleteTree();
                    return;
                } catch (java.nio.file.DirectoryNotEmptyException e) {
                    // a task process still wrote a file while we walked: walk again
                    if (attempt == 3) {
                        throw e;
                    }
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void deleteTree() throws IOException {
        {
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
