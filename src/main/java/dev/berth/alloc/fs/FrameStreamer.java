package dev.berth.alloc.fs;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.function.BooleanSupplier;

import dev.berth.alloc.fs.FsAccessException.Kind;
import dev.berth.config.Sleeper;

/**
 * Streams file contents as Nomad's {@code StreamFrame}s ({@code {"Offset":…,"Data":"<base64>","File":"…"}} back to back,
 * {@code {}} heartbeats every second while following) or as plain bytes. Follows log rotation: when the current file
 * is exhausted and a file with a higher index exists, it moves on; a purged file is skipped; a truncated file
 * restarts at 0 with a {@code file truncated} event. Reads at most 64 KiB per frame. Blocking: call it on the request
 * thread (a virtual thread); it returns when the client goes away, {@code stop} turns true, or — without follow —
 * at the end of the data.
 */
public final class FrameStreamer {

    /** One frame's data at most, as Nomad. */
    static final int FRAME_SIZE = 64 * 1024;

    public enum Origin { START, END }

    private final Sleeper sleeper;
    private final Duration pollInterval;
    private final Duration heartbeatInterval;

    public FrameStreamer() {
        this(Sleeper.system(), Duration.ofMillis(200), Duration.ofSeconds(1));
    }

    public FrameStreamer(Sleeper sleeper, Duration pollInterval, Duration heartbeatInterval) {
        this.sleeper = sleeper;
        this.pollInterval = pollInterval;
        this.heartbeatInterval = heartbeatInterval;
    }

    /** Streams one file from {@code offset} (counted from {@code origin}). */
    public void streamFile(Path file, String name, long offset, Origin origin, boolean follow, boolean plain,
            OutputStream out, BooleanSupplier stop) throws IOException, InterruptedException {
        long size = sizeOrZero(file);
        long position = origin == Origin.END ? Math.max(size - offset, 0) : offset;
        new Session(out, plain, follow, stop).run(new SingleFile(file, name), position);
    }

    /**
     * Streams a task's logs {@code <logDir>/<task>.<type>.N} across rotation. {@code offset} counts bytes over all
     * files, from the first ({@code START}) or back from the end of the last ({@code END}).
     */
    public void streamLogs(Path logDir, String task, String type, long offset, Origin origin, boolean follow, boolean plain,
            OutputStream out, BooleanSupplier stop) throws IOException, InterruptedException {
        LogFiles files = new LogFiles(logDir, task + "." + type);
        List<Integer> indices = files.indices();
        if (indices.isEmpty() && !follow) {
            throw new FsAccessException(Kind.NOT_FOUND, "log file not found for task \"" + task + "\" (" + type + ")");
        }
        int index = 0;
        long position = 0;
        if (!indices.isEmpty()) {
            if (origin == Origin.START) {
                int i = 0;
                long skip = offset;
                while (i < indices.size() - 1 && skip >= sizeOrZero(files.file(indices.get(i)))) {
                    skip -= sizeOrZero(files.file(indices.get(i)));
                    i++;
                }
                index = indices.get(i);
                position = Math.min(skip, sizeOrZero(files.file(index)));
            } else {
                int i = indices.size() - 1;
                long back = offset;
                while (i > 0 && back > sizeOrZero(files.file(indices.get(i)))) {
                    back -= sizeOrZero(files.file(indices.get(i)));
                    i--;
                }
                index = indices.get(i);
                position = Math.max(sizeOrZero(files.file(index)) - back, 0);
            }
        }
        files.current = index;
        new Session(out, plain, follow, stop).run(files, position);
    }

    private static long sizeOrZero(Path file) {
        try {
            return Files.size(file);
        } catch (IOException ex) {
            return 0;
        }
    }

    /** The file(s) a session reads: one fixed file, or the rotating log files. */
    private interface Source {
        Path current();

        String currentName();

        /** Moves to the next file if one exists; returns whether it moved. */
        boolean advance() throws IOException;
    }

    private record SingleFile(Path file, String name) implements Source {
        @Override
        public Path current() {
            return file;
        }

        @Override
        public String currentName() {
            return name;
        }

        @Override
        public boolean advance() {
            return false;
        }
    }

    private static final class LogFiles implements Source {
        private final Path dir;
        private final String base;
        int current;

        LogFiles(Path dir, String base) {
            this.dir = dir;
            this.base = base;
        }

        List<Integer> indices() throws IOException {
            if (!Files.isDirectory(dir)) {
                return List.of();
            }
            String prefix = base + ".";
            try (var stream = Files.list(dir)) {
                return stream.map(p -> dev.berth.driver.logs.RotatingFileWriter.logIndex(p.getFileName().toString(), prefix))
                        .filter(n -> n >= 0).sorted().toList();
            }
        }

        Path file(int n) {
            return dir.resolve(base + "." + n);
        }

        @Override
        public Path current() {
            return file(current);
        }

        @Override
        public String currentName() {
            return "alloc/logs/" + base + "." + current;
        }

        @Override
        public boolean advance() throws IOException {
            for (int n : indices()) {
                if (n > current) {
                    current = n;
                    return true;
                }
            }
            return false;
        }
    }

    private final class Session {
        private final OutputStream out;
        private final boolean plain;
        private final boolean follow;
        private final BooleanSupplier stop;
        private final byte[] buffer = new byte[FRAME_SIZE];
        private long sinceWrite;

        Session(OutputStream out, boolean plain, boolean follow, BooleanSupplier stop) {
            this.out = out;
            this.plain = plain;
            this.follow = follow;
            this.stop = stop;
        }

        void run(Source source, long startPosition) throws IOException, InterruptedException {
            long position = startPosition;
            while (!stop.getAsBoolean()) {
                Path file = source.current();
                int n = read(file, position);
                if (n > 0) {
                    position += n;
                    emit(source.currentName(), position, n, null);
                    continue;
                }
                if (source.advance()) {
                    position = 0;
                    continue;
                }
                if (n == -2) { // the file shrank below our position
                    position = 0;
                    emit(source.currentName(), 0, 0, "file truncated");
                    continue;
                }
                if (!follow) {
                    break;
                }
                sleeper.sleep(pollInterval);
                sinceWrite += pollInterval.toMillis();
                if (!plain && sinceWrite >= heartbeatInterval.toMillis()) {
                    out.write("{}".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    sinceWrite = 0;
                }
            }
            out.flush();
        }

        /** Bytes read into the buffer; 0 at end of file or when the file is absent; -2 when it was truncated. */
        private int read(Path file, long position) throws IOException {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                long size = channel.size();
                if (size < position) {
                    return -2;
                }
                ByteBuffer bb = ByteBuffer.wrap(buffer);
                int n = channel.read(bb, position);
                return Math.max(n, 0);
            } catch (NoSuchFileException ex) {
                return 0;
            }
        }

        private void emit(String name, long offset, int length, String event) throws IOException {
            if (plain) {
                out.write(buffer, 0, length);
            } else {
                StringBuilder frame = new StringBuilder(length * 4 / 3 + 96).append("{\"Offset\":").append(offset);
                if (length > 0) {
                    frame.append(",\"Data\":\"").append(Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer, length)))
                            .append('"');
                }
                frame.append(",\"File\":\"").append(jsonEscape(name)).append('"');
                if (event != null) {
                    frame.append(",\"FileEvent\":\"").append(event).append('"');
                }
                out.write(frame.append('}').toString().getBytes(StandardCharsets.UTF_8));
            }
            out.flush();
            sinceWrite = 0;
        }
    }

    static String jsonEscape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }
}
