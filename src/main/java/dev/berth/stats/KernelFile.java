package dev.berth.stats;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One cgroup file of a task, opened once and re-read from offset 0 with {@code pread(2)} at every sample: the path
 * lookup, {@code open} and {@code close} (and the JDK's per-stream objects) are paid once per task instead of once per
 * file per second; what remains is the kernel generating the file's text. On Java 22+ the read is a foreign-function
 * call straight into the buffer's array ({@link NativePread}); on 21 it goes through a {@code FileChannel}. cgroupfs files are seq files, which restart
 * at offset 0 and fill a read as far as the buffer allows, so a short read is the end of the file.
 *
 * <p>Kept-open descriptors come out of the agent's {@link DescriptorBudget}, re-checked at every read: past it a file
 * gives its descriptor back and is opened and closed per read.
 * Not thread-safe; the owning reader serialises reads and {@link #close()}.
 */
final class KernelFile implements AutoCloseable {

    private final Path path;
    private final DescriptorBudget budget;
    private final boolean nativeReads;
    /** The kept-open descriptor when reads go through {@link NativePread}; -1 when not open that way. */
    private int fd = -1;
    private FileChannel channel;
    private boolean closed;

    KernelFile(Path path, DescriptorBudget budget) {
        this(path, budget, NativePread.AVAILABLE);
    }

    /** @param nativeReads read through {@link NativePread} (Java 22+) rather than a {@code FileChannel} */
    KernelFile(Path path, DescriptorBudget budget, boolean nativeReads) {
        this.path = path;
        this.budget = budget;
        this.nativeReads = nativeReads;
    }

    Path path() {
        return path;
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
        if (isOpen() && budget.overdrawn()) {
            release(); // more tasks arrived since it was opened: give the descriptor back
        }
        if (!isOpen() && budget.tryHold()) {
            if (nativeReads) {
                fd = NativePread.open(path);
                if (fd < 0) {
                    budget.release(); // gone (or not readable): the plain read below says which
                    return buffer.load(path.toString());
                }
            } else {
                try {
                    channel = FileChannel.open(path, StandardOpenOption.READ);
                } catch (NoSuchFileException gone) {
                    budget.release();
                    return false;
                } catch (IOException | RuntimeException e) {
                    budget.release();
                    throw e;
                }
            }
        } else if (!isOpen()) {
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
            budget.release();
        }
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // a read-only descriptor: nothing was buffered
            } finally {
                channel = null;
                budget.release();
            }
        }
    }
}
