package dev.berth.driver.docker;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies a container's followed log stream into the task's stdout/stderr files (appending). The stream ends by
 * itself when the container stops; {@link #awaitDrained} lets the waiter report the exit only after the last
 * lines are on disk.
 *
 * <p>The stream is requested with timestamps: each frame starts with the engine's RFC 3339 nano timestamp of that
 * log entry, which is stripped, and after writing it the file's mtime is set to that timestamp. The mtime is
 * therefore "the last entry copied" and survives an agent restart: {@link #resuming} skips every entry at or before
 * it, so a recovered task loses nothing written while the agent was down and duplicates nothing (two entries with
 * the very same nanosecond, one copied and one not, would lose the second: best effort).
 */
final class ContainerLogCopier extends ResultCallback.Adapter<Frame> {

    private static final Logger log = LoggerFactory.getLogger(ContainerLogCopier.class);

    /** Longest timestamp prefix looked for ({@code 2006-01-02T15:04:05.999999999Z} plus slack for an offset). */
    private static final int MAX_TIMESTAMP_LENGTH = 40;

    private final Stream stdout;
    private final Stream stderr;
    private final CountDownLatch drained = new CountDownLatch(1);

    /** One target file; entries at or before {@code after} (null: none) are already in it. */
    private static final class Stream {
        final Path path;
        final OutputStream out;
        final Instant after;

        Stream(Path path, Instant after) throws IOException {
            this.path = path;
            this.out = open(path);
            this.after = after;
        }
    }

    /** For a container just started: copies everything. */
    ContainerLogCopier(Path stdoutPath, Path stderrPath) throws IOException {
        this(stdoutPath, null, stderrPath, null);
    }

    private ContainerLogCopier(Path stdoutPath, Instant stdoutAfter, Path stderrPath, Instant stderrAfter) throws IOException {
        this.stdout = new Stream(stdoutPath, stdoutAfter);
        this.stderr = new Stream(stderrPath, stderrAfter);
    }

    /** For a recovered container: continues after the last entry each existing file holds (its mtime). */
    static ContainerLogCopier resuming(Path stdoutPath, Path stderrPath) throws IOException {
        return new ContainerLogCopier(stdoutPath, lastCopied(stdoutPath), stderrPath, lastCopied(stderrPath));
    }

    /**
     * The {@code since} (whole seconds, as the engine API's docker-java binding takes it) to follow from: the earlier
     * of the two files' last entries, rounded down; the per-file filter drops what that re-sends. 0 (everything)
     * when a file has no record.
     */
    int since() {
        if (stdout.after == null || stderr.after == null) {
            return 0;
        }
        Instant earlier = stdout.after.isBefore(stderr.after) ? stdout.after : stderr.after;
        return (int) Math.max(0, earlier.getEpochSecond());
    }

    private static Instant lastCopied(Path path) throws IOException {
        if (path == null || !Files.exists(path)) {
            return null;
        }
        return Files.getLastModifiedTime(path).toInstant();
    }

    private static OutputStream open(Path path) throws IOException {
        if (path == null) {
            return OutputStream.nullOutputStream();
        }
        if (path.getParent() != null) {
            Files.createDirectories(path.getParent());
        }
        return Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    }

    @Override
    public void onNext(Frame frame) {
        Stream target = frame.getStreamType() == StreamType.STDERR ? stderr : stdout;
        byte[] payload = frame.getPayload();
        int space = -1;
        for (int i = 0; i < Math.min(payload.length, MAX_TIMESTAMP_LENGTH); i++) {
            if (payload[i] == ' ') {
                space = i;
                break;
            }
        }
        Instant timestamp = null;
        if (space > 0) {
            try {
                timestamp = Instant.parse(new String(payload, 0, space, StandardCharsets.US_ASCII));
            } catch (DateTimeParseException notATimestamp) {
                space = -1;
            }
        }
        if (timestamp != null && target.after != null && !timestamp.isAfter(target.after)) {
            return; // copied before the agent restarted
        }
        try {
            target.out.write(payload, space + 1, payload.length - space - 1);
            target.out.flush();
            if (timestamp != null && target.path != null) {
                Files.setLastModifiedTime(target.path, FileTime.from(timestamp));
            }
        } catch (IOException e) {
            log.warn("cannot write container log: {}", e.toString());
        }
    }

    @Override
    public void onError(Throwable throwable) {
        log.debug("container log stream ended with {}", throwable.toString());
        finish();
        super.onError(throwable);
    }

    @Override
    public void onComplete() {
        finish();
        super.onComplete();
    }

    @Override
    public void close() throws IOException {
        try {
            super.close();
        } finally {
            finish();
        }
    }

    private void finish() {
        if (drained.getCount() == 0) {
            return;
        }
        try {
            stdout.out.close();
            stderr.out.close();
        } catch (IOException e) {
            log.debug("closing log files: {}", e.toString());
        }
        drained.countDown();
    }

    /** Whether the stream has ended (the container stopped, or the connection broke) and the files are closed. */
    boolean ended() {
        return drained.getCount() == 0;
    }

    /** Waits until the stream has ended and the files are closed, at most {@code millis}. */
    boolean awaitDrained(long millis) throws InterruptedException {
        return drained.await(millis, TimeUnit.MILLISECONDS);
    }
}
