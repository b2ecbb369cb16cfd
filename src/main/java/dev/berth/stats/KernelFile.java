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
 * file per second; what remains is the kernel generating the file's text. cgroupfs files are seq files, which restart
 * at offset 0 and fill a read as far as the buffer allows, so a short read is the end of the file.
 *
 * <p>Descriptors are bounded: all kernel files together hold at most {@link #BUDGET} of them (a quarter of the
 * process's descriptor limit: each task also holds about five of its own — log FIFOs, its pidfd, the shim's pipe —
 * and sockets need the rest); past it a file is opened and closed per read as before. With the usual hard limit of
 * 524,288 that is 14,000 tasks' worth; with 20,000 it is 555 tasks. Not thread-safe; the owning reader serialises reads and {@link #close()}.
 */
final class KernelFile implements AutoCloseable {

    /** Descriptors all kernel files together may hold open. */
    static final int BUDGET = budget();
    private static final AtomicInteger HELD = new AtomicInteger();

    private final Path path;
    private FileChannel channel;
    private boolean closed;

    KernelFile(Path path) {
        this.path = path;
    }

    Path path() {
        return path;
    }

    /** How many descriptors kernel files hold now (all tasks). */
    static int held() {
        return HELD.get();
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
        if (channel == null && HELD.incrementAndGet() <= BUDGET) {
            try {
                channel = FileChannel.open(path, StandardOpenOption.READ);
            } catch (NoSuchFileException gone) {
                HELD.decrementAndGet();
                return false;
            } catch (IOException | RuntimeException e) {
                HELD.decrementAndGet();
                throw e;
            }
        } else if (channel == null) {
            HELD.decrementAndGet();
            return buffer.load(path.toString()); // over budget: open, read, close
        }
        try {
            return buffer.pread(channel);
        } catch (IOException removed) {
            // a removed cgroup's open files fail with ENODEV: the cgroup is gone, as a missing file is
            close();
            closed = false; // a new cgroup at the same path is opened afresh next time
            return false;
        }
    }

    @Override
    public void close() {
        closed = true;
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

    private static int budget() {
        long limit = 0;
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            limit = unix.getMaxFileDescriptorCount();
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.max(0, limit / 4));
    }
}
