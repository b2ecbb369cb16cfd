package dev.berth.host;

import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import com.sun.jna.StringArray;
import com.sun.jna.ptr.IntByReference;

/**
 * The agent's one binding of the C library (JNA): every libc function any package calls, declared once. {@link #get()}
 * binds it on first use, so classes that name it load without native access; where it cannot be bound, the
 * {@link UnsatisfiedLinkError} tells callers to take their portable path. The binding makes no platform promise: the
 * flag values and struct layouts a caller passes are the caller's (they say which platform they hold for).
 *
 * <p>A function declared to throw {@link LastErrorException} has its {@code errno} checked by JNA, so a failed call
 * throws it; the others return -1 (or 0 for none) and leave {@code errno} to {@link Native#getLastError()}. The per-tick
 * calls that must not allocate ({@code statvfs}, {@code poll}) are also mapped directly, in {@link Direct}.
 */
public interface LibC extends Library {

    // processes and threads

    int kill(int pid, int sig) throws LastErrorException;

    int setpriority(int which, int who, int prio);

    int geteuid();

    int waitpid(int pid, IntByReference status, int options);

    long syscall(long number, long a, long b);

    // files and descriptors

    int open(String path, int flags);

    long read(int fd, Pointer buf, long count);

    long write(int fd, Pointer buf, long count);

    int close(int fd);

    int mkfifo(String path, int mode);

    int poll(Pointer fds, NativeLong nfds, int timeout);

    int epoll_create1(int flags);

    int epoll_ctl(int epfd, int op, int fd, Pointer event);

    int epoll_wait(int epfd, Pointer events, int maxevents, int timeout);

    int eventfd(int initval, int flags);

    // mounts

    int mount(String source, String target, String fstype, NativeLong flags, String data) throws LastErrorException;

    int umount2(String target, int flags) throws LastErrorException;

    // memory

    /** glibc: returns free C heap pages to the OS (1 when memory was released); missing from musl. */
    int malloc_trim(long pad);

    // posix_spawn (raw_exec); the _np ones are glibc 2.34+

    int posix_spawn(IntByReference pid, String path, Pointer fileActions, Pointer attr, StringArray argv, StringArray envp);

    int posix_spawn_file_actions_init(Pointer actions);

    int posix_spawn_file_actions_destroy(Pointer actions);

    int posix_spawn_file_actions_addopen(Pointer actions, int fd, String path, int flags, int mode);

    int posix_spawn_file_actions_addchdir_np(Pointer actions, String path);

    int posix_spawn_file_actions_addclosefrom_np(Pointer actions, int from);

    int posix_spawnattr_init(Pointer attr);

    int posix_spawnattr_destroy(Pointer attr);

    int posix_spawnattr_setflags(Pointer attr, short flags);

    int posix_spawnattr_setsigmask(Pointer attr, Pointer mask);

    int posix_spawnattr_setsigdefault(Pointer attr, Pointer set);

    int sigemptyset(Pointer set);

    int sigfillset(Pointer set);

    /**
     * The C library, bound on the first call.
     *
     * @throws UnsatisfiedLinkError where it cannot be bound (no libc by that name, JNA's native part missing)
     */
    static LibC get() {
        return Binding.get();
    }

    /** Whether {@link #get()} gives the C library. */
    static boolean available() {
        return Binding.LIBC != null;
    }

    /** The proxy, made once: a class' static initialiser runs on first use, and once. */
    final class Binding {

        private static final LibC LIBC;
        private static final String FAILURE;

        static {
            LibC libc = null;
            String failure = null;
            try {
                libc = Native.load("c", LibC.class);
            } catch (LinkageError | RuntimeException e) {
                failure = e.toString();
            }
            LIBC = libc;
            FAILURE = failure;
        }

        private Binding() {
        }

        static LibC get() {
            if (LIBC == null) {
                throw new UnsatisfiedLinkError("the C library cannot be bound: " + FAILURE);
            }
            return LIBC;
        }
    }

    /**
     * {@code statvfs(2)} and {@code poll(2)} through JNA direct mapping with primitive arrays, for the host collector's
     * tick: no {@code Structure} (whose field layout, auto-write and auto-read go through reflection on every call), no
     * interface proxy, no {@code NativeLong}. Only on 64-bit Linux, where every field of {@code struct statvfs} is an
     * unsigned long (8 bytes) and {@code nfds_t} is one too; elsewhere {@link #AVAILABLE} is false and callers take
     * their portable path.
     */
    final class Direct {

        /** {@code struct statvfs} on 64-bit Linux: 11 unsigned longs and {@code int __f_spare[6]} (112 bytes). */
        public static final int STATVFS_LONGS = 14;
        public static final int F_BSIZE = 0, F_FRSIZE = 1, F_BLOCKS = 2, F_BFREE = 3, F_BAVAIL = 4, F_FILES = 5, F_FFREE = 6;
        private static final short POLLPRI = 0x2;

        private static final Charset ENCODING = encoding();

        public static final boolean AVAILABLE = register();

        private Direct() {
        }

        private static native int statvfs(byte[] path, long[] buf);

        private static native int poll(int[] fds, long nfds, int timeout);

        /** The path as a NUL-terminated C string, encoded as JNA encodes a {@code String} argument. */
        public static byte[] cString(String path) {
            byte[] bytes = path.getBytes(ENCODING);
            byte[] c = new byte[bytes.length + 1];
            System.arraycopy(bytes, 0, c, 0, bytes.length);
            return c;
        }

        /** {@code statvfs} of {@code cPath} into {@code out} ({@link #STATVFS_LONGS} longs); true on success. */
        public static boolean statfs(byte[] cPath, long[] out) {
            return statvfs(cPath, out) == 0;
        }

        /**
         * A zero-timeout {@code poll} of {@code fd} for {@code POLLPRI}, with {@code pollFd} (two ints, the caller's) as
         * the {@code struct pollfd}: the {@code revents} it reported, or -1 when the call failed.
         */
        public static int pollPri(int fd, int[] pollFd) {
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
                Native.register(Direct.class, "c");
                return true;
            } catch (LinkageError | RuntimeException unavailable) {
                return false;
            }
        }
    }
}
