package dev.berth.driver.docker;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.LogContainerCmd;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The followed log stream of one container, which outlives a broken engine connection: a followed stream also ends when
 * the engine goes away (a dockerd restart with {@code live-restore}, a proxy in between), while the container may run
 * on. Once the engine answers again, {@link #refollow} continues from what the files already hold (their mtimes, see
 * {@link ContainerLogCopier}), so lines written meanwhile are copied and none twice.
 */
final class ContainerLogs implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(ContainerLogs.class);

    private final DockerClient client;
    private final String id;
    private final Path stdout;
    private final Path stderr;
    private volatile ContainerLogCopier current;
    private volatile boolean closed;

    private ContainerLogs(DockerClient client, String id, Path stdout, Path stderr) {
        this.client = client;
        this.id = id;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** The files to copy into are opened now (before the container starts), the stream by {@link #follow()}. */
    static ContainerLogs fresh(DockerClient client, String id, Path stdout, Path stderr) throws IOException {
        ContainerLogs logs = new ContainerLogs(client, id, stdout, stderr);
        logs.current = new ContainerLogCopier(stdout, stderr);
        return logs;
    }

    /** For a recovered container: follows at once, after the last entry each file holds. */
    static ContainerLogs resuming(DockerClient client, String id, Path stdout, Path stderr) throws IOException {
        ContainerLogs logs = new ContainerLogs(client, id, stdout, stderr);
        logs.current = ContainerLogCopier.resuming(stdout, stderr);
        logs.follow();
        return logs;
    }

    /**
     * Starts following into the current copier. The engine keeps the whole log: following after the start still copies
     * from the first line, also for a container that has already exited (the stream then ends at once).
     */
    void follow() {
        ContainerLogCopier copier = current;
        LogContainerCmd cmd = client.logContainerCmd(id).withFollowStream(true).withStdOut(true).withStdErr(true).withTimestamps(true);
        int since = copier.since();
        if (since > 0) {
            cmd.withSince(since);
        }
        cmd.exec(copier);
    }

    /** After the engine answered again: if the stream has ended, follows again from what the files hold. */
    synchronized void refollow() {
        if (closed || !current.ended()) {
            return;
        }
        try {
            current = ContainerLogCopier.resuming(stdout, stderr);
            follow();
            log.debug("container {}: log stream followed again after a broken engine connection", id);
        } catch (IOException | RuntimeException e) {
            log.warn("container {}: cannot follow its logs again: {}", id, e.toString());
        }
    }

    /** Waits until the current stream has ended and its files are closed, at most {@code millis}. */
    boolean awaitDrained(long millis) throws InterruptedException {
        return current.awaitDrained(millis);
    }

    /** Closes {@code logs} (may be null), e.g. of a start that failed before the container was tracked. */
    static void closeQuietly(ContainerLogs logs) {
        if (logs != null) {
            try {
                logs.close();
            } catch (IOException e) {
                log.debug("closing log files: {}", e.toString());
            }
        }
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        current.close();
    }
}
