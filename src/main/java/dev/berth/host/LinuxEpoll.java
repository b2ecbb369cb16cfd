package dev.berth.host;

import java.io.IOException;
import java.nio.file.Path;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Platform;

/**
 * The epoll pollers' use of {@link LibC} (the log pump's FIFOs, raw_exec's pidfds): {@code open}, {@code read},
 * {@code write}, {@code close}, {@code epoll_*}, {@code eventfd}. Only for 64-bit Linux on x86-64 and
 * AArch64, whose flag values and {@code struct epoll_event} layout are written down here; {@link #AVAILABLE} is false elsewhere and the callers fall
 * back (a thread per log stream, {@code ProcessBuilder} for raw_exec). Every descriptor is opened close-on-exec so task
 * processes never inherit one.
 */
public final class LinuxEpoll {

    public static final int O_RDONLY = 0;
    public static final int O_NONBLOCK = 0x800;
    public static final int O_CLOEXEC = 0x80000;
    public static final int EPOLLIN = 0x1;
    public static final int EPOLLERR = 0x8;
    public static final int EPOLLHUP = 0x10;
    public static final int EPOLLONESHOT = 1 << 30;
    public static final int EPOLL_CTL_ADD = 1;
    public static final int EPOLL_CTL_DEL = 2;
    public static final int EPOLL_CTL_MOD = 3;
    public static final int EINTR = 4;
    public static final int EAGAIN = 11;
    public static final int EBADF = 9;
    public static final int ENOENT = 2;

    /** {@code struct epoll_event} is packed (12 bytes) on x86-64 only; elsewhere the 64-bit data is 8-byte aligned. */
    public static final int EVENT_SIZE;
    public static final int EVENT_DATA_OFFSET;

    /** True on 64-bit Linux x86-64/AArch64 when libc's epoll could be bound and an epoll instance made. */
    public static final boolean AVAILABLE;

    private static final LibC LIBC;

    static {
        boolean intel = Platform.isIntel();
        EVENT_SIZE = intel ? 12 : 16;
        EVENT_DATA_OFFSET = intel ? 4 : 8;
        LibC libc = null;
        boolean ok = false;
        if (Platform.isLinux() && Platform.is64Bit() && (intel || Platform.isARM())) {
            try {
                libc = LibC.get();
                int probe = libc.epoll_create1(O_CLOEXEC);
                if (probe >= 0) {
                    libc.close(probe);
                    ok = true;
                }
            } catch (LinkageError ex) {
                ok = false;
            }
        }
        LIBC = ok ? libc : null;
        AVAILABLE = ok;
    }

    private LinuxEpoll() {
    }

    public static LibC libc() {
        if (LIBC == null) {
            throw new IllegalStateException("epoll is not available on this platform");
        }
        return LIBC;
    }

    public static int errno() {
        return Native.getLastError();
    }

    /** Opens a FIFO's read end without waiting for a writer ({@code O_RDONLY|O_NONBLOCK|O_CLOEXEC}). */
    public static int openFifoForReading(Path fifo) throws IOException {
        int fd = libc().open(fifo.toString(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) {
            throw new IOException("open " + fifo + " failed, errno " + errno());
        }
        return fd;
    }

    public static int epollCreate() throws IOException {
        int fd = libc().epoll_create1(O_CLOEXEC);
        if (fd < 0) {
            throw new IOException("epoll_create1 failed, errno " + errno());
        }
        return fd;
    }

    /** A non-blocking eventfd to wake the poller with. */
    public static int eventFd() throws IOException {
        int fd = libc().eventfd(0, O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) {
            throw new IOException("eventfd failed, errno " + errno());
        }
        return fd;
    }

    /**
     * {@code epoll_ctl} with one event in {@code scratch} (at least {@link #EVENT_SIZE} bytes, owned by the caller).
     *
     * @return 0, or the errno of a failed call
     */
    public static int ctl(int epfd, int op, int fd, int events, long data, Memory scratch) {
        scratch.setInt(0, events);
        scratch.setLong(EVENT_DATA_OFFSET, data);
        return libc().epoll_ctl(epfd, op, fd, scratch) == 0 ? 0 : errno();
    }

    public static int eventsAt(Memory events, int i) {
        return events.getInt((long) i * EVENT_SIZE);
    }

    public static long dataAt(Memory events, int i) {
        return events.getLong((long) i * EVENT_SIZE + EVENT_DATA_OFFSET);
    }
}
