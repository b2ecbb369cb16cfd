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
 * The fallback {@link TaskLogPump} where epoll is not available: one small-stack platform thread per stream, blocked in
 * a FIFO read (a blocking FIFO read would pin a virtual thread's carrier). Costs a thread and a buffer per stream.
 */
final class ThreadLogPump implements TaskLogPump {

    private static final Logger log = LoggerFactory.getLogger(ThreadLogPump.class);

    private final Path fifo;
    private final RotatingFileWriter writer;
    private final CountDownLatch done = new CountDownLatch(1);
    private final CountDownLatch opened = new CountDownLatch(1);
    private final Thread thread;
    private volatile Closeable in;
    private volatile boolean closed;

    private ThreadLogPump(Path fifo, RotatingFileWriter writer, String threadName) {
        this.fifo = fifo;
        this.writer = writer;
        this.thread = Thread.ofPlatform().name(threadName).daemon(true).stackSize(128 * 1024).unstarted(this::run);
    }

    /** Starts draining {@code fifo} into {@code writer} on a new platform thread named {@code threadName}. */
    static ThreadLogPump start(Path fifo, RotatingFileWriter writer, String threadName) {
        ThreadLogPump pump = new ThreadLogPump(fifo, writer, threadName);
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

    @Override
    public boolean awaitOpen(long timeoutMillis) throws InterruptedException {
        return opened.await(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public boolean awaitEnd(long timeoutMillis) throws InterruptedException {
        return done.await(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** A pump still blocked in opening the FIFO is released by opening its write end once. */
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
