package dev.berth.driver.docker;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 */
final class ContainerLogCopier extends ResultCallback.Adapter<Frame> {

    private static final Logger log = LoggerFactory.getLogger(ContainerLogCopier.class);

    private final OutputStream stdout;
    private final OutputStream stderr;
    private final CountDownLatch drained = new CountDownLatch(1);

    ContainerLogCopier(Path stdoutPath, Path stderrPath) throws IOException {
        this.stdout = open(stdoutPath);
        this.stderr = open(stderrPath);
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
        try {
            OutputStream target = frame.getStreamType() == StreamType.STDERR ? stderr : stdout;
            target.write(frame.getPayload());
            target.flush();
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
            stdout.close();
            stderr.close();
        } catch (IOException e) {
            log.debug("closing log files: {}", e.toString());
        }
        drained.countDown();
    }

    /** Waits until the stream has ended and the files are closed, at most {@code millis}. */
    boolean awaitDrained(long millis) throws InterruptedException {
        return drained.await(millis, TimeUnit.MILLISECONDS);
    }
}
