package dev.berth.driver.logs;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes one task stream into Nomad's rotating files {@code <dir>/<base>.<N>}: the highest index is the current
 * file; when it would grow past {@code maxFileSize} the writer moves on to {@code N+1} and deletes files with an index
 * {@code <= N+1-maxFiles}, so at most {@code maxFiles} files stay on disk. On open it continues the highest existing
 * index (an agent restart does not start a new file). Writes are split at the size boundary, so no file ever exceeds
 * the limit. Every write goes straight to the file (no buffering in the JVM). Not thread-safe on its own: one pump
 * owns it and writes to it from one thread at a time.
 */
public final class RotatingFileWriter implements Closeable {

    private final Path dir;
    private final String baseName;
    private final int maxFiles;
    private final long maxFileSize;
    private int index;
    private long size;
    private FileChannel out;

    public RotatingFileWriter(Path dir, String baseName, int maxFiles, long maxFileSize) {
        if (maxFiles < 1) {
            throw new IllegalArgumentException("'maxFiles' must be at least 1, was " + maxFiles);
        }
        if (maxFileSize < 1) {
            throw new IllegalArgumentException("'maxFileSize' must be positive, was " + maxFileSize);
        }
        this.dir = dir;
        this.baseName = baseName;
        this.maxFiles = maxFiles;
        this.maxFileSize = maxFileSize;
        try {
            Files.createDirectories(dir);
            this.index = Math.max(0, highestIndex(dir, baseName));
            Path current = file(index);
            this.size = Files.exists(current) ? Files.size(current) : 0;
            this.out = open(current);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** The highest {@code N} of the files {@code <base>.<N>} in {@code dir}, or -1 when there is none. */
    public static int highestIndex(Path dir, String baseName) throws IOException {
        int highest = -1;
        if (!Files.isDirectory(dir)) {
            return highest;
        }
        String prefix = baseName + ".";
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, prefix + "*")) {
            for (Path file : files) {
                int n = parseIndex(file.getFileName().toString(), prefix);
                highest = Math.max(highest, n);
            }
        }
        return highest;
    }

    /** The index of a file named {@code <prefix><N>}, or -1 when the name is not of that form. */
    public static int logIndex(String fileName, String prefix) {
        return parseIndex(fileName, prefix);
    }

    /** The index of a file named {@code <prefix><N>}, or -1. */
    static int parseIndex(String fileName, String prefix) {
        if (!fileName.startsWith(prefix) || fileName.length() == prefix.length() || fileName.length() - prefix.length() > 9) {
            return -1;
        }
        int n = 0;
        for (int i = prefix.length(); i < fileName.length(); i++) {
            char c = fileName.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    public Path file(int n) {
        return dir.resolve(baseName + "." + n);
    }

    public int currentIndex() {
        return index;
    }

    public void write(byte[] bytes, int offset, int length) throws IOException {
        write(ByteBuffer.wrap(bytes, offset, length));
    }

    /**
     * Writes the buffer's remaining bytes (a direct buffer goes to the file without a copy) and leaves it consumed.
     */
    public void write(ByteBuffer bytes) throws IOException {
        int end = bytes.limit();
        while (bytes.position() < end) {
            if (size >= maxFileSize) {
                rotate();
            }
            int chunk = (int) Math.min(end - bytes.position(), maxFileSize - size);
            bytes.limit(bytes.position() + chunk);
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            size += chunk;
            bytes.limit(end);
        }
    }

    private void rotate() throws IOException {
        out.close();
        index++;
        size = 0;
        out = open(file(index));
        for (int old = index - maxFiles; old >= 0; old--) {
            if (!Files.deleteIfExists(file(old))) {
                break; // older ones were purged by an earlier rotation
            }
        }
    }

    private static FileChannel open(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
