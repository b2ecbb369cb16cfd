package dev.berth.stats;

import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A reusable buffer that reads a whole kernel file (cgroupfs/procfs report size 0, so it reads to EOF) and parses
 * numbers straight from the bytes: no regex, no per-line strings. Not thread-safe: the readers take the one of the
 * thread they sample on ({@link #forThisThread()}), so a thousand tasks share a few buffers instead of holding one each.
 */
final class CgroupFileBuffer {

    private static final ThreadLocal<CgroupFileBuffer> PER_THREAD = ThreadLocal.withInitial(() -> new CgroupFileBuffer(true));

    private byte[] buf = new byte[4096];
    private int len;
    private ByteBuffer window;
    /**
     * Whether {@link #pread} reads through a direct buffer of its own: NIO copies a read into a heap buffer through a
     * temporary direct one, which costs more CPU per read of a small cgroup file than the read into a direct buffer
     * (figures in docs/benchmarks/stats.md).
     */
    private final boolean direct;
    private ByteBuffer nativeWindow;
    /** {@link NativePread}'s segment over {@link #buf} (a new one when the array grows). */
    private Object segment;
    private byte[] segmentArray;

    CgroupFileBuffer() {
        this(false);
    }

    private CgroupFileBuffer(boolean direct) {
        this.direct = direct;
    }

    /**
     * The buffer of the calling platform thread (the stats read threads); a virtual thread gets a fresh heap buffer,
     * since a virtual thread's own would live only as long as it.
     */
    static CgroupFileBuffer forThisThread() {
        return Thread.currentThread().isVirtual() ? new CgroupFileBuffer(false) : PER_THREAD.get();
    }

    /** Reads the file; false when it does not exist (or vanished with its cgroup/process). */
    boolean load(String path) throws IOException {
        len = 0;
        try (FileInputStream in = new FileInputStream(path)) {
            int n;
            while ((n = in.read(buf, len, buf.length - len)) > 0) {
                len += n;
                if (len == buf.length) {
                    buf = Arrays.copyOf(buf, buf.length * 2);
                }
            }
            return true;
        } catch (FileNotFoundException gone) {
            return false;
        }
    }

    /**
     * Reads a kept-open kernel file from offset 0 ({@code pread}); a read shorter than the room left is the end of a
     * seq file, so a sample costs one system call per file.
     */
    boolean pread(FileChannel channel) throws IOException {
        len = 0;
        while (true) {
            int room = buf.length - len;
            int n = direct ? readThroughNativeWindow(channel, room) : readIntoHeapWindow(channel);
            if (n <= 0) {
                return true;
            }
            len += n;
            if (n < room) {
                return true;
            }
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
    }

    /**
     * Reads a kept-open kernel file from offset 0 through {@link NativePread} straight into {@link #buf}.
     *
     * @return false when the read failed (a removed cgroup's files fail with {@code ENODEV})
     */
    boolean pread(int fd) {
        len = 0;
        while (true) {
            int room = buf.length - len;
            if (segmentArray != buf) {
                segment = NativePread.segmentOf(buf);
                segmentArray = buf;
            }
            long n = NativePread.pread(fd, segment, len, room, len);
            if (n < 0) {
                len = 0;
                return false;
            }
            len += (int) n;
            if (n < room) {
                return true;
            }
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
    }

    /** Reads at offset {@code len} straight into {@code buf} (NIO copies it through a temporary direct buffer). */
    private int readIntoHeapWindow(FileChannel channel) throws IOException {
        if (window == null || window.array() != buf) {
            window = ByteBuffer.wrap(buf);
        }
        window.limit(buf.length).position(len);
        return channel.read(window, len);
    }

    /** Reads at offset {@code len} into this buffer's own direct buffer, then copies what came into {@code buf}. */
    private int readThroughNativeWindow(FileChannel channel, int room) throws IOException {
        if (nativeWindow == null || nativeWindow.capacity() != buf.length) {
            nativeWindow = ByteBuffer.allocateDirect(buf.length);
        }
        nativeWindow.clear().limit(room);
        int n = channel.read(nativeWindow, len);
        if (n > 0) {
            nativeWindow.flip().get(buf, len, n);
        }
        return n;
    }

    int length() {
        return len;
    }

    /** The bytes read ({@code [0, length())}); the buffer's own array, valid until its next read. */
    byte[] bytes() {
        return buf;
    }

    /** The first number in the file ({@code max} and other words read as -1). */
    long firstLong() {
        return parseLong(0);
    }

    /**
     * Scans {@code key value} lines (memory.stat, cpu.stat, cpuacct.stat, /proc status with {@code Key:}) and stores
     * the value of each wanted key into {@code out} at the key's index, stopping once every key was found.
     *
     * @return a bit mask of the keys found (bit i = keys[i])
     */
    long scan(byte[][] keys, long[] out) {
        // the array and length in locals, a key compared only when its length matches: C1 (the shipped JIT) neither
        // hoists field loads out of a loop nor inlines the comparison, and this runs for every task every second
        byte[] b = buf;
        int n = len;
        long all = allOf(keys.length);
        long found = 0;
        int pos = 0;
        while (pos < n && found != all) {
            int keyEnd = pos;
            byte c;
            while (keyEnd < n && (c = b[keyEnd]) != ' ' && c != '\t' && c != '\n') {
                keyEnd++;
            }
            int keyLength = keyEnd - pos;
            for (int k = 0; k < keys.length; k++) {
                byte[] key = keys[k];
                if (key.length == keyLength && (found & (1L << k)) == 0 && keyEquals(key, b, pos, keyEnd)) {
                    out[k] = parseLong(keyEnd);
                    found |= 1L << k;
                    break;
                }
            }
            pos = keyEnd;
            while (pos < n && b[pos] != '\n') {
                pos++;
            }
            pos++;
        }
        return found;
    }

    /** Starts of the space-separated fields of /proc/pid/stat after the {@code (comm)} field, which may hold spaces. */
    int statFieldsStart() {
        int close = len - 1;
        while (close >= 0 && buf[close] != ')') {
            close--;
        }
        return close + 2;
    }

    /** The n-th (0-based) space-separated number at or after {@code from}. */
    long fieldLong(int from, int n) {
        int pos = from;
        for (int i = 0; i < n && pos < len; i++) {
            while (pos < len && buf[pos] != ' ') {
                pos++;
            }
            pos++;
        }
        return parseLong(pos);
    }

    /** Each line as a number (cgroup.procs). */
    int lines(long[] out) {
        int count = 0;
        int pos = 0;
        while (pos < len && count < out.length) {
            if (buf[pos] >= '0' && buf[pos] <= '9') {
                out[count++] = parseLong(pos);
            }
            while (pos < len && buf[pos] != '\n') {
                pos++;
            }
            pos++;
        }
        return count;
    }

    @Override
    public String toString() {
        return new String(buf, 0, len, StandardCharsets.US_ASCII);
    }

    static byte[][] keys(String... names) {
        byte[][] keys = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            keys[i] = names[i].getBytes(StandardCharsets.US_ASCII);
        }
        return keys;
    }

    /** The mask of {@code count} keys, all found. */
    static long allOf(int count) {
        return count == Long.SIZE ? -1L : (1L << count) - 1;
    }

    /** Whether {@code b[from, to)} is {@code key}. */
    static boolean keyEquals(byte[] key, byte[] b, int from, int to) {
        if (to - from != key.length) {
            return false;
        }
        for (int i = 0; i < key.length; i++) {
            if (b[from + i] != key[i]) {
                return false;
            }
        }
        return true;
    }

    /** The number at {@code from}: skips blanks, then reads digits; anything else (e.g. "max") gives -1. */
    long parseLong(int from) {
        byte[] b = buf;
        int n = len;
        int pos = from;
        while (pos < n && (b[pos] == ' ' || b[pos] == '\t')) {
            pos++;
        }
        if (pos >= n || b[pos] < '0' || b[pos] > '9') {
            return -1;
        }
        long value = 0;
        byte c;
        while (pos < n && (c = b[pos]) >= '0' && c <= '9') {
            value = value * 10 + (c - '0');
            pos++;
        }
        return value;
    }
}
