package dev.berth.driver.logs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sun.jna.Memory;

import dev.berth.host.LinuxEpoll;

/**
 * One epoll instance and one poller thread ({@value #POLLER_NAME}) for every task log FIFO of the process.
 *
 * <p>Each stream's FIFO is opened non-blocking and registered level-triggered with {@code EPOLLONESHOT}: when it becomes
 * readable (or its last writer hangs up) the poller hands it to a short-lived virtual thread that reads it in 64 KiB
 * chunks into the stream's {@link RotatingFileWriter} until the pipe is empty, then re-arms it. So at most one drain per
 * stream runs at a time (per-stream order), the poller itself never touches a disk, and a stream whose disk write hangs
 * holds only its own drain (see {@link EpollLogPump} for the bound).
 *
 * <p>The poller thread runs only while at least one stream is registered: the first registration starts it, the last
 * unregistration wakes it through an eventfd and it ends, so no {@code berth-} thread outlives the last task's pumps
 * (and an agent context that closed its pumps leaves none behind). The epoll and eventfd descriptors stay open for the
 * life of the process (two descriptors).
 *
 * <p>Read buffers are native 64 KiB blocks taken from a small pool only while a drain runs: idle streams cost no buffer
 * at all (the thread-per-stream pump kept one per stream).
 */
final class EpollLogPumps {

    static final String POLLER_NAME = "berth-logpump";
    static final int BUFFER_SIZE = 64 * 1024;
    /** Idle buffers kept for reuse; drains beyond that allocate and free their own. */
    private static final int POOLED_BUFFERS = 16;
    private static final int MAX_EVENTS = 256;
    private static final long WAKE_TOKEN = 0;

    private static final Logger log = LoggerFactory.getLogger(EpollLogPumps.class);
    private static volatile EpollLogPumps shared;

    private final int epfd;
    private final int wakeFd;
    private final Map<Long, EpollLogPump> streams = new ConcurrentHashMap<>();
    private final AtomicLong tokens = new AtomicLong(WAKE_TOKEN);
    private final ConcurrentLinkedQueue<Memory> buffers = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pooled = new AtomicInteger();
    private final Object lifecycle = new Object();
    /** Guarded by {@link #lifecycle}. */
    private Thread poller;
    /** Registered streams; guarded by {@link #lifecycle}. */
    private int registered;
    /** The poller's own event array and wake-up scratch; only the poller thread uses them. */
    private final Memory events = new Memory((long) MAX_EVENTS * LinuxEpoll.EVENT_SIZE);
    private final Memory wakeRead = new Memory(8);
    /** Written by whichever thread unregisters the last stream. */
    private final Memory wakeWrite = new Memory(8);

    EpollLogPumps() throws IOException {
        this.epfd = LinuxEpoll.epollCreate();
        this.wakeFd = LinuxEpoll.eventFd();
        try (Memory ctl = new Memory(16)) {
            int err = LinuxEpoll.ctl(epfd, LinuxEpoll.EPOLL_CTL_ADD, wakeFd, LinuxEpoll.EPOLLIN, WAKE_TOKEN, ctl);
            if (err != 0) {
                throw new IOException("epoll_ctl(eventfd) failed, errno " + err);
            }
        }
    }

    /** The process-wide instance, or null where epoll is not available (the caller falls back to threads). */
    static EpollLogPumps shared() {
        EpollLogPumps pumps = shared;
        if (pumps == null && LinuxEpoll.AVAILABLE) {
            synchronized (EpollLogPumps.class) {
                pumps = shared;
                if (pumps == null) {
                    try {
                        pumps = new EpollLogPumps();
                        shared = pumps;
                    } catch (IOException ex) {
                        log.warn("epoll log pump unavailable, falling back to a thread per stream: {}", ex.toString());
                        return null;
                    }
                }
            }
        }
        return pumps;
    }

    /** Opens {@code fifo} non-blocking and starts draining it into {@code writer}. */
    EpollLogPump register(Path fifo, RotatingFileWriter writer, String name) throws IOException {
        int fd = LinuxEpoll.openFifoForReading(fifo);
        EpollLogPump pump = new EpollLogPump(this, tokens.incrementAndGet(), fd, fifo, writer, name);
        streams.put(pump.token(), pump);
        synchronized (lifecycle) {
            registered++;
            if (poller == null) {
                poller = Thread.ofPlatform().name(POLLER_NAME).daemon(true).stackSize(256 * 1024).start(this::poll);
            }
        }
        int err = pump.arm(LinuxEpoll.EPOLL_CTL_ADD);
        if (err != 0) {
            pump.close();
            throw new IOException("epoll_ctl(ADD) for " + fifo + " failed, errno " + err);
        }
        return pump;
    }

    /** Called once per pump, with its lock held, before it closes its descriptor. */
    void unregister(EpollLogPump pump, int fd, Memory ctl) {
        streams.remove(pump.token());
        int err = LinuxEpoll.ctl(epfd, LinuxEpoll.EPOLL_CTL_DEL, fd, 0, 0, ctl);
        if (err != 0 && err != LinuxEpoll.ENOENT) {
            log.debug("epoll_ctl(DEL) for {}: errno {}", pump, err);
        }
        synchronized (lifecycle) {
            registered--;
            if (registered == 0) {
                wake();
            }
        }
    }

    int epfd() {
        return epfd;
    }

    /** Streams registered now (tests and diagnostics). */
    int registeredStreams() {
        synchronized (lifecycle) {
            return registered;
        }
    }

    /** The poller thread while one runs (tests). */
    Thread pollerThread() {
        synchronized (lifecycle) {
            return poller;
        }
    }

    Memory takeBuffer() {
        Memory buffer = buffers.poll();
        if (buffer == null) {
            return new Memory(BUFFER_SIZE);
        }
        pooled.decrementAndGet();
        return buffer;
    }

    void releaseBuffer(Memory buffer) {
        if (pooled.incrementAndGet() <= POOLED_BUFFERS) {
            buffers.add(buffer);
        } else {
            pooled.decrementAndGet();
            buffer.close();
        }
    }

    private void wake() {
        synchronized (wakeWrite) {
            wakeWrite.setLong(0, 1);
            LinuxEpoll.libc().write(wakeFd, wakeWrite, 8);
        }
    }

    private void poll() {
        while (true) {
            synchronized (lifecycle) {
                if (registered == 0) {
                    poller = null;
                    return;
                }
            }
            try {
                int n = LinuxEpoll.libc().epoll_wait(epfd, events, MAX_EVENTS, -1);
                if (n < 0) {
                    int errno = LinuxEpoll.errno();
                    if (errno != LinuxEpoll.EINTR) {
                        log.error("epoll_wait failed, errno {}; log pumps stop", errno);
                        failAll();
                        return;
                    }
                    continue;
                }
                for (int i = 0; i < n; i++) {
                    long token = LinuxEpoll.dataAt(events, i);
                    if (token == WAKE_TOKEN) {
                        LinuxEpoll.libc().read(wakeFd, wakeRead, 8); // resets the counter; EAGAIN if already read
                        continue;
                    }
                    EpollLogPump pump = streams.get(token);
                    if (pump != null) { // null: closed after epoll_wait returned its event
                        pump.ready();
                    }
                }
            } catch (RuntimeException | Error ex) {
                // one bad event must not end every stream's pump; the loop re-checks and waits again
                log.error("log pump poller: {}", ex.toString(), ex);
            }
        }
    }

    /** epoll itself broke (it does not in practice): end every pump so nobody waits for data forever. */
    private void failAll() {
        for (EpollLogPump pump : streams.values()) {
            pump.close();
        }
        synchronized (lifecycle) {
            poller = null;
        }
    }
}
