package dev.berth.stats;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.Arrays;

/**
 * A small procfs file ({@code /proc/stat}, {@code /proc/meminfo}, {@code /proc/uptime}) opened once and re-read from
 * offset 0 into a reused array at every host-stats tick: no path lookup, no stream, no string per line. A seq file
 * fills a read as far as the buffer allows, so a read shorter than the room left is its end; a buffer that fills up
 * doubles and the file is read again. Not thread-safe: the host collector's tick (serialised) is its only user.
 */
final class ProcFile implements AutoCloseable {

    private final String path;
    private RandomAccessFile file;
    private byte[] buf;
    private int len;

    ProcFile(String path, int initialSize) {
        this.path = path;
        this.buf = new byte[initialSize];
    }

    /**
     * Reads the file whole (opening it on first use).
     *
     * @throws IOException when it cannot be opened or read
     */
    void read() throws IOException {
        RandomAccessFile f = file;
        if (f == null) {
            f = new RandomAccessFile(path, "r");
            file = f;
        }
        while (true) {
            f.seek(0);
            int n = 0;
            int got;
            while (n < buf.length && (got = f.read(buf, n, buf.length - n)) > 0) {
                n += got;
                if (n < buf.length) {
                    break; // short read: the end of a seq file
                }
            }
            if (n < buf.length) {
                len = n;
                return;
            }
            buf = new byte[buf.length * 2]; // more than the buffer holds: read it again, whole
        }
    }

    byte[] bytes() {
        return buf;
    }

    int length() {
        return len;
    }

    String path() {
        return path;
    }

    /** What the last read returned, as text (for the slow paths). */
    String text() {
        return new String(buf, 0, len, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** For tests: the file's content as if read. */
    void load(byte[] content) {
        buf = Arrays.copyOf(content, Math.max(content.length + 1, buf.length));
        len = content.length;
    }

    @Override
    public void close() {
        RandomAccessFile f = file;
        file = null;
        if (f != null) {
            try {
                f.close();
            } catch (IOException ignored) {
                // read-only
            }
        }
    }
}
