package dev.berth.stats;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One cgroup file of a task, opened once and re-read from offset 0 with {@code pread(2)} at every sample: the path
 * lookup, {@code open} and {@code close} (and the JDK's per-stream objects) are paid once per task instead of once per
 * file per second; what remains is the kernel generating the file's text. On Java 22+ the read is a foreign-function
 * call straight into the buffer's array ({@link NativePread}); on 21 it goes through a {@code FileChannel}. cgroupfs files are seq files, which restart
 * at offset 0 and fill a read as far as the buffer allows, so a short read is the end of the file.
 *
 * <p>Descriptors are bounded by what the process can spare: kernel files together hold at most the descriptor limit
 * less an eighth of it (at least 1,024: sockets, the state database, the JVM's own) and less {@value #OWN_PER_TASK}
 * per sampled task (each task also holds descriptors of its own: log FIFOs, its pidfd, the shim's pipe),
 * re-checked at every read. Past that a file gives its descriptor back and is opened and closed per read.
 * With a hard limit of 524,288 that never binds; with 20,000 it holds all nine v1 files of up to ~1,000 tasks and
 * none from ~2,200.
 * Not thread-safe; the owning reader serialises reads and {@link #close()}.
 */
final class KernelFile implements AutoCloseable {

    /** Descriptors a sampled task is assumed to hold besides its kernel files. */
    static final int OWN_PER_TASK = 8;
    private static final long LIMIT = maxDescriptors();
    private static final AtomicInteger HELD = new AtomicInteger();
    private static volatile int tasks;

    private final Path path;
    private final boolean nativeReads;
    /** The kept-open descriptor when reads go through {@link NativePread}; -1 when not open that way. */
    private int fd = -1;
    private FileChannel channel;
    private boolean closed;

    KernelFile(Path path) {
        this(path, NativePread.AVAILABLE);
    }

    /** @param nativeReads read through {@link NativePread} (Java 22+) rather than a {@code FileChannel} */
    KernelFile(Path path, boolean nativeReads) {
        this.path = path;
        this.nativeReads = nativeReads;
    }

    Path path() {
        return path;
    }

    /** How many descriptors kernel files hold now (all tasks). */
    static int held() {
        return HELD.get();
    }

    /** The number of tasks being sampled (the collector tells). */
    static void sampledTasks(int count) {
        tasks = count;
    }

    /** How many descriptors kernel files may hold now. */
    static long allowed() {
        return LIMIT - Math.max(1024, LIMIT / 8) - (long) OWN_PER_TASK * tasks;
    }

    /**
     * Reads the whole file into {@code buffer}.
     *
     * @return false when the file does not exist (or vanished with its cgroup), or this file was closed
     */
    boolean readInto(CgroupFileBuffer buffer) throws IOException {
        if (closed) {
            return false;
        }
        if (isOpen() && HELD.get() > allowed()) {
            release(); // more tasks arrived since it was opened: give the descriptor back
        }
        if (!isOpen() && HELD.incrementAndGet() <= allowed()) {
            if (nativeReads) {
                fd = NativePread.open(path);
                if (fd < 0) {
                    HELD.decrementAndGet(); // gone (or not readable): the plain read below says which
                    return buffer.load(path.toString());
                }
            } else {
                try {
                    channel = FileChannel.open(path, StandardOpenOption.READ);
                } catch (NoSuchFileException gone) {
                    HELD.decrementAndGet();
                    return false;
                } catch (IOException | RuntimeException e) {
                    HELD.decrementAndGet();
                    throw e;
                }
            }
        } else if (!isOpen()) {
            HELD.decrementAndGet();
            return buffer.load(path.toString()); // over budget: open, read, close
        }
        boolean read;
        if (fd >= 0) {
            read = buffer.pread(fd);
        } else {
            try {
                read = buffer.pread(channel);
            } catch (IOException removed) {
                read = false;
            }
        }
        if (!read) {
            // a removed cgroup's open files fail with ENODEV: the cgroup is gone, as a missing file is
            close();
            closed = false; // a new cgroup at the same path is opened afresh next time
        }
        return read;
    }

    /** The kept-open descriptor of a native read, -1 when there is none (for tests). */
    int descriptor() {
        return fd;
    }

    private boolean isOpen() {
        return fd >= 0 || channel != null;
    }

    @Override
    public void close() {
        closed = true;
        release();
    }

    private void release() {
        if (fd >= 0) {
            NativePread.close(fd);
            fd = -1;
            HELD.decrementAndGet();
        }
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // a read-only descriptor: nothing was buffered
            } finally {
                channel = null;
                HELD.decrementAndGet();
            }
        }
    }

    private static long maxDescriptors() {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            return Math.max(0, unix.getMaxFileDescriptorCount());
        }
        return 0;
    }
}
