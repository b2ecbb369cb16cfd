package dev.berth.driver.logs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sun.jna.Memory;

import dev.berth.host.LinuxEpoll;

/**
 * One stream registered with the {@link EpollLogPumps} poller: a non-blocking FIFO descriptor and its writer.
 *
 * <p>A drain runs on a virtual thread named after the stream, only while the FIFO has data: it reads until the pipe is
 * empty ({@code EAGAIN}) and re-arms the one-shot registration, or until {@value #TURN_BYTES} bytes were moved and
 * re-arms at once (level-triggered, so a stream that never pauses yields its carrier to the others between turns),
 * or until end-of-file (every writer closed), which ends the pump. Reads and writes happen under the stream's lock, and
 * the descriptor is closed only under it, so a drain never reads a descriptor number the kernel already reused.
 *
 * <p><b>Slow disk bound.</b> A write that hangs (a dead NFS server, a stalled device) holds only this stream's drain:
 * its FIFO is not re-armed, so its task blocks once the 64 KiB pipe buffer is full (as it did with a thread per
 * stream), and every other stream goes on. The virtual-thread scheduler compensates a carrier pinned in file I/O with
 * an extra one, up to {@code jdk.virtualThreadScheduler.maxPoolSize} (256 by default): up to that many streams can
 * hang in writes at once before other virtual threads wait for a carrier (the same compensation briefly adds carriers
 * while many streams write at once; they retire when idle). {@link #close()} waits at most
 * {@value #CLOSE_WAIT_MILLIS} ms for a hanging write and then leaves the final cleanup to the drain.
 */
final class EpollLogPump implements TaskLogPump {

    /** Bytes one drain turn moves before it gives the stream back to the poller. */
    static final long TURN_BYTES = 1024 * 1024;
    static final long CLOSE_WAIT_MILLIS = 2_000;
    private static final int ARMED = LinuxEpoll.EPOLLIN | LinuxEpoll.EPOLLONESHOT;
    private static final Logger log = LoggerFactory.getLogger(EpollLogPump.class);

    private final EpollLogPumps pumps;
    private final long token;
    private final int fd;
    private final Path fifo;
    private final RotatingFileWriter writer;
    private final String name;
    private final ReentrantLock lock = new ReentrantLock();
    private final CountDownLatch done = new CountDownLatch(1);
    /** epoll_ctl scratch, used only under {@link #lock} (or before the pump is published). */
    private final Memory ctl = new Memory(16);
    /** The descriptor is closed and the writer too; guarded by {@link #lock}. */
    private boolean finished;
    private volatile boolean closeRequested;
    /** Bytes read from the FIFO so far; written only under {@link #lock}. */
    private volatile long bytesRead;

    EpollLogPump(EpollLogPumps pumps, long token, int fd, Path fifo, RotatingFileWriter writer, String name) {
        this.pumps = pumps;
        this.token = token;
        this.fd = fd;
        this.fifo = fifo;
        this.writer = writer;
        this.name = name;
    }

    long token() {
        return token;
    }

    /** Registers ({@code EPOLL_CTL_ADD}) or re-arms ({@code EPOLL_CTL_MOD}) the one-shot readiness event; 0 or errno. */
    int arm(int op) {
        lock.lock();
        try {
            return finished ? 0 : LinuxEpoll.ctl(pumps.epfd(), op, fd, ARMED, token, ctl);
        } finally {
            lock.unlock();
        }
    }

    /** The poller saw the FIFO readable or hung up; the one-shot registration is disarmed until the drain re-arms it. */
    void ready() {
        Thread.ofVirtual().name(name).start(this::drain);
    }

    private void drain() {
        lock.lock();
        Memory buffer = null;
        try {
            if (finished) {
                return;
            }
            buffer = pumps.takeBuffer();
            long moved = 0;
            boolean endOfFile = false;
            while (!closeRequested && moved < TURN_BYTES) {
                long n = LinuxEpoll.libc().read(fd, buffer, EpollLogPumps.BUFFER_SIZE);
                if (n > 0) {
                    bytesRead += n;
                    writer.write(buffer.getByteBuffer(0, n));
                    moved += n;
                } else if (n == 0) {
                    endOfFile = true; // every writer has closed the FIFO
                    break;
                } else {
                    int errno = LinuxEpoll.errno();
                    if (errno == LinuxEpoll.EAGAIN) {
                        break;
                    }
                    if (errno != LinuxEpoll.EINTR) {
                        throw new IOException("read failed, errno " + errno);
                    }
                }
            }
            if (endOfFile || closeRequested) {
                finish(); // closeRequested here: close() gave up waiting while this drain wrote, so clean up for it
            } else {
                rearm();
            }
        } catch (IOException | RuntimeException ex) {
            if (!closeRequested) {
                log.warn("log pump for {} stopped: {}", fifo, ex.toString());
            }
            finish();
        } finally {
            if (buffer != null) {
                pumps.releaseBuffer(buffer);
            }
            lock.unlock();
        }
    }

    private void rearm() throws IOException {
        int err = LinuxEpoll.ctl(pumps.epfd(), LinuxEpoll.EPOLL_CTL_MOD, fd, ARMED, token, ctl);
        if (err != 0) {
            throw new IOException("epoll_ctl(MOD) failed, errno " + err);
        }
    }

    /** Unregisters, closes the descriptor and the writer; with the lock held; once. */
    private void finish() {
        if (finished) {
            return;
        }
        finished = true;
        pumps.unregister(this, fd, ctl);
        if (LinuxEpoll.libc().close(fd) != 0) {
            log.debug("closing fifo {}: errno {}", fifo, LinuxEpoll.errno());
        }
        try {
            writer.close();
        } catch (IOException ex) {
            log.debug("closing log writer for {}", fifo, ex);
        }
        done.countDown();
    }

    /** Bytes this pump has read from its FIFO (diagnostics; a read chunk is counted just before it is written). */
    long bytesRead() {
        return bytesRead;
    }

    @Override
    public boolean awaitOpen(long timeoutMillis) {
        return true; // opened non-blocking in register()
    }

    @Override
    public boolean awaitEnd(long timeoutMillis) throws InterruptedException {
        return done.await(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        closeRequested = true;
        boolean interrupted = false;
        try {
            if (lock.tryLock(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                try {
                    finish();
                } finally {
                    lock.unlock();
                }
            } else {
                log.warn("log pump for {} is stuck in a write; it lets go of the FIFO when the write returns", fifo);
            }
        } catch (InterruptedException ex) {
            interrupted = true;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return name + " (" + fifo + ")";
    }
}
