package dev.berth.driver.logs;

import java.io.Closeable;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains one task stream from its FIFO into a {@link RotatingFileWriter} (Nomad's logmon, in-process).
 *
 * <p>Why a FIFO and not a file the task appends to: rotation needs someone between the task and the files; why not an
 * anonymous pipe: the task must survive an agent restart, and a pipe whose reader died SIGPIPEs the task. The task's
 * launcher keeps the FIFO open read-write for the task's lifetime, so the task never sees EPIPE while the agent is
 * away (its writes only wait once the 64 KiB pipe buffer is full); a restarted agent opens the FIFO again and drains on.
 *
 * <p>The pump ends at end-of-file, when every writer (task, its children, the launcher) has closed the FIFO.
 * It runs on a small-stack platform thread, because a blocking FIFO read would pin a virtual thread's carrier.
 */
public final class TaskLogPump implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TaskLogPump.class);

    private final Path fifo;
    private final RotatingFileWriter writer;
    private final CountDownLatch done = new CountDownLatch(1);
    private final CountDownLatch opened = new CountDownLatch(1);
    private final Thread thread;
    private volatile Closeable in;
    private volatile boolean closed;

    private TaskLogPump(Path fifo, RotatingFileWriter writer, String threadName) {
        this.fifo = fifo;
        this.writer = writer;
        this.thread = Thread.ofPlatform().name(threadName).daemon(true).stackSize(128 * 1024).unstarted(this::run);
    }

    /**
     * Starts draining {@code fifo} into {@code writer}. Call before the task opens the FIFO for writing, so the
     * task's open does not block.
     */
    public static TaskLogPump start(Path fifo, RotatingFileWriter writer, String threadName) {
        TaskLogPump pump = new TaskLogPump(fifo, writer, threadName);
        pump.thread.start();
        return pump;
    }

    private void run() {
        // 8 KiB per stream: two pumps per task × 2,000 tasks keep 32 MB of buffers live (32 KiB cost 128 MB);
        // a pipe delivers at most 64 KiB per read anyway, and throughput stays far above what tasks write
        byte[] buffer = new byte[8 * 1024];
        ByteBuffer bb = ByteBuffer.wrap(buffer);
        // A FileChannel, not a FileInputStream: closing a channel wakes a thread blocked in read (close() relies on that
        // to stop a pump whose task is silent); closing a stream's descriptor does not.
        try (FileChannel stream = FileChannel.open(fifo, StandardOpenOption.READ)) { // blocks until a writer opens the FIFO
            in = stream;
            opened.countDown();
            int n;
            while (!closed && (n = stream.read(bb.clear())) >= 0) {
                writer.write(buffer, 0, n);
            }
        } catch (IOException ex) {
            if (!closed) {
                log.warn("log pump for {} stopped: {}", fifo, ex.toString());
            }
        } finally {
            try {
                writer.close();
            } catch (IOException ex) {
                log.debug("closing log writer for {}", fifo, ex);
            }
            done.countDown();
        }
    }

    /**
     * Waits until the pump has the FIFO open for reading, at most {@code timeoutMillis}. Until then nothing reads the
     * FIFO: if every writer closes before that, the kernel discards what they wrote (a pipe with neither readers nor
     * writers keeps no data), so callers that do not hold the FIFO open themselves wait here first.
     */
    public boolean awaitOpen(long timeoutMillis) throws InterruptedException {
        return opened.await(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** Waits until the pump reached end-of-file (all writers closed), at most {@code timeoutMillis}. */
    public boolean awaitEnd(long timeoutMillis) throws InterruptedException {
        return done.await(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /**
     * Stops the pump now (agent shutdown: the task keeps running and a later agent drains on). A pump still blocked in
     * opening the FIFO is released by opening its write end once.
     */
    @Override
    public void close() {
        closed = true;
        if (in == null) {
            try (FileOutputStream ignored = new FileOutputStream(fifo.toFile())) {
                // opening the write end lets the blocked open return; the closed flag then ends the loop
            } catch (IOException ex) {
                log.debug("releasing log pump for {}", fifo, ex);
            }
        }
        Closeable stream = in;
        if (stream != null) {
            try {
                stream.close();
            } catch (IOException ex) {
                log.debug("closing fifo {}", fifo, ex);
            }
        }
        try {
            done.await(2, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
