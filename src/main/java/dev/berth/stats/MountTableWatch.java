package dev.berth.stats;

import java.nio.file.Path;

import com.sun.jna.Memory;
import com.sun.jna.NativeLong;
import com.sun.jna.Platform;

import dev.berth.host.LibC;

/**
 * Tells whether the mount table changed since the last look, without reading it: the kernel flags an open
 * {@code /proc/self/mounts} with {@code POLLPRI} once after every mount or unmount in the namespace, and a zero-timeout
 * {@code poll(2)} both reports and clears that flag. The host collector thus enumerates mounts (each task adds two)
 * only when they changed, not every second.
 *
 * <p>Where the descriptor cannot be opened or polled (not Linux, no JNA) {@link #changed()} always answers true, i.e.
 * the caller enumerates every time. Thread-safe.
 */
final class MountTableWatch implements AutoCloseable {

    private static final int O_RDONLY_CLOEXEC = 0x80000;
    private static final short POLLPRI = 0x2;
    private static final short POLLERR = 0x8;
    private static final short POLLNVAL = 0x20;
    private static final int POLLFD_SIZE = 8; // struct pollfd { int fd; short events; short revents; }

    private static final LibC LIBC = load();

    private final Memory pollFd;
    /** The pollfd for {@link LibC.Direct#pollPri} (no JNA proxy, no NativeLong per look). */
    private final int[] pollInts = new int[2];
    private int fd;
    private boolean first = true;

    private MountTableWatch(int fd) {
        this.fd = fd;
        this.pollFd = fd >= 0 ? new Memory(POLLFD_SIZE) : null;
    }

    /** Watches {@code mounts} (normally {@code /proc/self/mounts}); a watch that always reports a change when it cannot. */
    static MountTableWatch open(Path mounts) {
        if (LIBC == null) {
            return new MountTableWatch(-1);
        }
        return new MountTableWatch(LIBC.open(mounts.toString(), O_RDONLY_CLOEXEC));
    }

    /** True on the first call, after any mount-table change since the previous call, and whenever it cannot tell. */
    synchronized boolean changed() {
        if (fd < 0) {
            return true;
        }
        boolean changed;
        if (LibC.Direct.AVAILABLE) {
            int revents = LibC.Direct.pollPri(fd, pollInts);
            changed = revents < 0 || (revents & (POLLPRI | POLLERR | POLLNVAL)) != 0;
        } else {
            pollFd.setInt(0, fd);
            pollFd.setShort(4, POLLPRI);
            pollFd.setShort(6, (short) 0);
            int ready = LIBC.poll(pollFd, new NativeLong(1), 0);
            changed = ready < 0 || (ready > 0 && (pollFd.getShort(6) & (POLLPRI | POLLERR | POLLNVAL)) != 0);
        }
        if (first) {
            first = false;
            return true;
        }
        return changed;
    }

    /** Whether changes are really detected (false: {@link #changed()} is always true). */
    boolean watching() {
        return fd >= 0;
    }

    @Override
    public synchronized void close() {
        if (fd >= 0) {
            LIBC.close(fd);
            fd = -1;
        }
    }

    private static LibC load() {
        if (!Platform.isLinux()) {
            return null;
        }
        try {
            return LibC.get();
        } catch (LinkageError unavailable) {
            return null;
        }
    }
}
