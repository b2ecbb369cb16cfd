package dev.berth.stats;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A small procfs file ({@code /proc/stat}, {@code /proc/meminfo}, {@code /proc/uptime}) opened once and re-read from
 * offset 0 at every host-stats tick, as the task readers' cgroup files are: a {@link KernelFile} read into a buffer of
 * its own ({@link CgroupFileBuffer}, which grows as needed). No path lookup, no stream, no string per line. Not
 * thread-safe: the host collector's tick (serialised) is its only user.
 */
final class ProcFile implements AutoCloseable {

    private final String path;
    private final KernelFile file;
    private final CgroupFileBuffer buffer = new CgroupFileBuffer();

    ProcFile(String path) {
        this.path = path;
        this.file = new KernelFile(Path.of(path), DescriptorBudget.ofReserve()); // always held: the reserve covers it
    }

    /**
     * Reads the file whole (opening it on first use).
     *
     * @throws IOException when it cannot be opened or read
     */
    void read() throws IOException {
        if (!file.readInto(buffer)) {
            throw new IOException(path + " could not be read");
        }
    }

    byte[] bytes() {
        return buffer.bytes();
    }

    int length() {
        return buffer.length();
    }

    String path() {
        return path;
    }

    /** What the last read returned, as text (for the slow paths). */
    String text() {
        return new String(buffer.bytes(), 0, buffer.length(), StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
        file.close();
    }
}
