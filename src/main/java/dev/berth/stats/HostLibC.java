package dev.berth.stats;

import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import com.sun.jna.Native;
import com.sun.jna.Platform;

/**
 * {@code statvfs(2)} and {@code poll(2)} through JNA direct mapping with primitive arrays, for the host collector's
 * tick: no {@code Structure} (whose field layout, auto-write and auto-read go through reflection on every call), no
 * interface proxy, no {@code NativeLong}. Only on 64-bit Linux, where every field of {@code struct statvfs} is an
 * unsigned long (8 bytes) and {@code nfds_t} is one too; elsewhere {@link #AVAILABLE} is false and callers take their
 * portable path.
 */
final class HostLibC {

    /** {@code struct statvfs} on 64-bit Linux: 11 unsigned longs and {@code int __f_spare[6]} (112 bytes). */
    static final int STATVFS_LONGS = 14;
    static final int F_FRSIZE = 1, F_BLOCKS = 2, F_BFREE = 3, F_BAVAIL = 4, F_FILES = 5, F_FFREE = 6;
    private static final short POLLPRI = 0x2;

    private static final Charset ENCODING = encoding();

    static final boolean AVAILABLE = register();

    private HostLibC() {
    }

    private static native int statvfs(byte[] path, long[] buf);

    private static native int poll(int[] fds, long nfds, int timeout);

    /** The path as a NUL-terminated C string, encoded as JNA encodes a {@code String} argument. */
    static byte[] cString(String path) {
        byte[] bytes = path.getBytes(ENCODING);
        byte[] c = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, c, 0, bytes.length);
        return c;
    }

    /** {@code statvfs} of {@code cPath} into {@code out} ({@link #STATVFS_LONGS} longs); true on success. */
    static boolean statfs(byte[] cPath, long[] out) {
        return statvfs(cPath, out) == 0;
    }

    /**
     * A zero-timeout {@code poll} of {@code fd} for {@code POLLPRI}: the {@code revents} it reported, or -1 when the
     * call failed.
     */
    static int pollPri(int fd, int[] pollFd) {
        pollFd[0] = fd;
        pollFd[1] = pack(POLLPRI, (short) 0);
        int ready = poll(pollFd, 1, 0);
        if (ready < 0) {
            return -1;
        }
        return ready == 0 ? 0 : revents(pollFd[1]);
    }

    // struct pollfd { int fd; short events; short revents; }: the two shorts share the second int
    private static int pack(short events, short revents) {
        return ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
                ? (events & 0xffff) | (revents & 0xffff) << 16
                : (events & 0xffff) << 16 | (revents & 0xffff);
    }

    private static int revents(int packed) {
        return ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? packed >>> 16 : packed & 0xffff;
    }

    private static Charset encoding() {
        try {
            return Charset.forName(Native.getDefaultStringEncoding());
        } catch (RuntimeException | LinkageError unknown) {
            return StandardCharsets.UTF_8;
        }
    }

    private static boolean register() {
        if (!Platform.isLinux() || Native.LONG_SIZE != 8) {
            return false;
        }
        try {
            Native.register(HostLibC.class, "c");
            return true;
        } catch (LinkageError | RuntimeException unavailable) {
            return false;
        }
    }
}
