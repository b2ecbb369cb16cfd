package dev.berth.driver.logs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.host.LinuxEpoll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * The epoll pump on real FIFOs, with its own {@link EpollLogPumps} (own epoll instance and poller thread), so the
 * registration counts and the poller's life are exactly this test's.
 */
class EpollLogPumpTest {

    static EpollLogPumps pumps;

    @TempDir
    Path dir;
    final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeAll
    static void epoll() throws IOException {
        assumeThat(LinuxEpoll.AVAILABLE).as("epoll (64-bit Linux)").isTrue();
        pumps = new EpollLogPumps();
    }

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : toClose.reversed()) {
            c.close();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> pumps.registeredStreams() == 0 && pumps.pollerThread() == null);
    }

    /** A launcher-like read-write handle: the FIFO always has a writer, so the pump sees no end-of-file. */
    FileChannel holder(Path fifo) throws IOException {
        FileChannel ch = FileChannel.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE);
        toClose.add(ch);
        return ch;
    }

    EpollLogPump pump(Path fifo, String base, long maxFileSize) throws IOException {
        EpollLogPump pump = pumps.register(fifo, new RotatingFileWriter(dir.resolve("logs"), base, 100, maxFileSize), "berth-test-" + base);
        toClose.add(pump);
        return pump;
    }

    static void write(FileChannel ch, String s) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    /** Descriptors of this JVM that point at {@code path} (via /proc/self/fd). */
    static long openDescriptors(Path path) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).equals(path);
                } catch (IOException ex) {
                    return false; // closed meanwhile (e.g. the listing's own descriptor)
                }
            }).count();
        }
    }

    static long platformThreadsButCarriers() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> !t.getName().startsWith("ForkJoinPool-")).count();
    }

    String log(String base) throws IOException {
        return Files.readString(dir.resolve("logs/" + base + ".0"));
    }

    @Test
    void manyStreamsWithInterleavedWritersAllArriveInOrderThroughOnePollerThread() throws Exception {
        int streams = 64;
        int lines = 300;
        List<Path> fifos = new ArrayList<>();
        List<EpollLogPump> started = new ArrayList<>();
        long threadsBefore = platformThreadsButCarriers();
        for (int s = 0; s < streams; s++) {
            Path fifo = Fifo.create(dir.resolve("fifo/s" + s));
            fifos.add(fifo);
            started.add(pump(fifo, "s" + s, 1024 * 1024));
        }
        assertThat(pumps.registeredStreams()).isEqualTo(streams);
        List<FileChannel> writers = new ArrayList<>();
        for (Path fifo : fifos) {
            writers.add(FileChannel.open(fifo, StandardOpenOption.WRITE));
        }
        // 4 writer threads, each owning 16 streams and writing one line to each in turn: the pump sees every stream
        // readable at once, again and again
        try (ExecutorService exec = Executors.newFixedThreadPool(4)) {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                int first = w;
                done.add(exec.submit(() -> {
                    for (int i = 0; i < lines; i++) {
                        for (int s = first; s < streams; s += 4) {
                            write(writers.get(s), "stream " + s + " line " + i + "\n");
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        }
        // one poller for 64 streams (a thread per stream would be 64 more platform threads; the 4 writers are ours).
        // Virtual-thread carriers are left out: the scheduler may add some while drains block in file writes.
        assertThat(pumps.pollerThread()).isNotNull();
        assertThat(platformThreadsButCarriers() - threadsBefore).isLessThan(12);
        for (FileChannel w : writers) {
            w.close(); // last writer gone: each pump drains and reaches end-of-file
        }
        for (int s = 0; s < streams; s++) {
            assertThat(started.get(s).awaitEnd(20_000)).isTrue();
            StringBuilder expected = new StringBuilder();
            for (int i = 0; i < lines; i++) {
                expected.append("stream ").append(s).append(" line ").append(i).append('\n');
            }
            assertThat(log("s" + s)).isEqualTo(expected.toString());
            assertThat(openDescriptors(fifos.get(s))).isZero();
        }
        assertThat(pumps.registeredStreams()).isZero();
        await().atMost(Duration.ofSeconds(10)).until(() -> pumps.pollerThread() == null);
    }

    @Test
    void partialWritesReachTheFileAsTheyComeWithoutWaitingForANewline() throws Exception {
        Path fifo = Fifo.create(dir.resolve("partial"));
        pump(fifo, "p", 1024);
        FileChannel task = holder(fifo);
        write(task, "hel");
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(dir.resolve("logs/p.0")) && log("p").equals("hel"));
        write(task, "lo\nwor");
        await().atMost(Duration.ofSeconds(10)).until(() -> log("p").equals("hello\nwor"));
        write(task, "ld\n");
        await().atMost(Duration.ofSeconds(10)).until(() -> log("p").equals("hello\nworld\n"));
    }

    @Test
    void writersMayCloseAndReopenWhileTheLauncherHoldsTheFifoAndTheLastCloseEndsThePump() throws Exception {
        Path fifo = Fifo.create(dir.resolve("reopen"));
        EpollLogPump pump = pump(fifo, "r", 1024 * 1024);
        FileChannel launcher = FileChannel.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE);
        for (int run = 0; run < 5; run++) {
            try (FileChannel task = FileChannel.open(fifo, StandardOpenOption.WRITE)) {
                write(task, "run " + run + "\n");
            }
            int expectRuns = run + 1;
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(dir.resolve("logs/r.0"))
                    && log("r").lines().count() == expectRuns);
            assertThat(pump.awaitEnd(0)).isFalse(); // a writer (the launcher) is left: no end-of-file
        }
        assertThat(openDescriptors(fifo)).isEqualTo(2); // the pump's and the launcher's
        launcher.close();
        assertThat(pump.awaitEnd(10_000)).isTrue();
        assertThat(log("r")).isEqualTo("run 0\nrun 1\nrun 2\nrun 3\nrun 4\n");
        assertThat(openDescriptors(fifo)).isZero();
    }

    @Test
    void closingAPumpWithDataPendingLeavesTheRestInThePipeForTheNextPumpNothingLostNothingTwice() throws Exception {
        Path fifo = Fifo.create(dir.resolve("pending"));
        EpollLogPump first = pump(fifo, "q", 64 * 1024);
        FileChannel task = holder(fifo);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger written = new AtomicInteger();
        // a writer that never pauses: when the first pump is closed it is mid-stream, and the pipe (64 KiB) fills while
        // no pump reads; the writer then blocks, as a task does while the agent is down
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try {
                for (int i = 0; !stop.get(); i++) {
                    write(task, String.format("%09d%n", i));
                    written.set(i + 1);
                }
            } catch (IOException ex) {
                throw new java.io.UncheckedIOException(ex);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> written.get() > 50_000);
        first.close();
        assertThat(first.awaitEnd(0)).isTrue();
        assertThat(openDescriptors(fifo)).isEqualTo(1); // only the task's own handle
        int atClose = written.get();
        // no wait for the writer to move on here: when the first pump had fallen behind, the pipe is already full at the
        // close and the writer moves only once the second pump reads (a CI run at load saw exactly that time out)
        EpollLogPump second = pump(fifo, "q", 64 * 1024);
        // the second pump has read once the writer is two pipe-fulls (64 KiB of 10-byte lines each) past the close; asking
        // for 50,000 lines here was a throughput demand that a busy machine (load 12 on 2 cores) did not meet in 10 s
        int pipeLines = 64 * 1024 / 10;
        await().atMost(Duration.ofSeconds(10)).until(() -> written.get() > atClose + 2 * pipeLines);
        stop.set(true);
        writer.get(10, TimeUnit.SECONDS);
        task.close();
        assertThat(second.awaitEnd(20_000)).isTrue();
        // rotated files q.0, q.1, … hold every line exactly once, in order
        StringBuilder all = new StringBuilder();
        int files = RotatingFileWriter.highestIndex(dir.resolve("logs"), "q");
        for (int n = 0; n <= files; n++) {
            all.append(Files.readString(dir.resolve("logs/q." + n)));
        }
        String[] lines = all.toString().split("\n");
        assertThat(lines).hasSize(written.get());
        for (int i = 0; i < lines.length; i++) {
            if (!lines[i].equals(String.format("%09d", i))) {
                assertThat(lines[i]).as("line %d", i).isEqualTo(String.format("%09d", i));
            }
        }
    }

    @Test
    void aStreamWhoseDiskWriteHangsStallsOnlyItselfAndLetsGoOfItsFifoWhenTheWriteReturns() throws Exception {
        // the "disk" of stream slow is a FIFO that nobody reads: once its 64 KiB buffer is full the pump's file write
        // blocks in the kernel, as on a hung disk
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path disk = Fifo.create(logs.resolve("slow.0"));
        FileChannel diskHolder = FileChannel.open(disk, StandardOpenOption.READ, StandardOpenOption.WRITE);
        toClose.add(diskHolder);
        Path slowFifo = Fifo.create(dir.resolve("slow"));
        Path fastFifo = Fifo.create(dir.resolve("fast"));
        EpollLogPump slow = pump(slowFifo, "slow", 1024 * 1024);
        EpollLogPump fast = pump(fastFifo, "fast", 1024 * 1024);
        FileChannel slowTask = holder(slowFifo);
        FileChannel fastTask = holder(fastFifo);
        byte[] block = new byte[32 * 1024];
        for (int i = 0; i < 3; i++) { // 96 KiB: more than the disk pipe takes, less than both pipes together
            slowTask.write(ByteBuffer.wrap(block));
        }
        // once the pump has read all 96 KiB, the drain holding the last chunk is blocked in its write for good;
        // the other stream keeps flowing
        await().atMost(Duration.ofSeconds(10)).until(() -> slow.bytesRead() == 3 * block.length);
        for (int i = 0; i < 20; i++) {
            write(fastTask, "fast " + i + "\n");
            int expect = i + 1;
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(logs.resolve("fast.0")) && log("fast").lines().count() == expect);
        }
        long t0 = System.nanoTime();
        slow.close(); // gives up after its bound: the write is still hanging
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
        assertThat(slow.awaitEnd(0)).isFalse();
        assertThat(openDescriptors(slowFifo)).isEqualTo(2); // the hanging drain still owns its descriptor (and the task's)
        // the disk comes back: the drain finishes its write, sees the close and lets go
        // a platform thread: closing a FileChannel wakes a platform thread blocked in read, not a virtual one
        Thread.ofPlatform().daemon(true).start(() -> { // reads the "disk" until tearDown closes it
            ByteBuffer sink = ByteBuffer.allocate(256 * 1024);
            try {
                while (diskHolder.read(sink.clear()) >= 0) {
                    // discard
                }
            } catch (IOException ex) {
                // closed
            }
        });
        assertThat(slow.awaitEnd(10_000)).isTrue();
        assertThat(openDescriptors(slowFifo)).isEqualTo(1);
        write(fastTask, "after\n");
        await().atMost(Duration.ofSeconds(10)).until(() -> log("fast").endsWith("fast 19\nafter\n"));
        assertThat(fast.awaitEnd(0)).isFalse();
    }

    @Test
    void pumpsRegisteredAndClosedConcurrentlyFromManyThreadsLeaveNoDescriptorAndNoPoller() throws Exception {
        int n = 200;
        List<Path> fifos = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            fifos.add(Fifo.create(dir.resolve("c/" + i)));
        }
        try (ExecutorService exec = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Path fifo = fifos.get(i);
                String base = "c" + i;
                all.add(exec.submit(() -> {
                    EpollLogPump p = pumps.register(fifo, new RotatingFileWriter(dir.resolve("logs"), base, 2, 1024), base);
                    try (FileChannel task = FileChannel.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                        write(task, base + "\n");
                        await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(dir.resolve("logs/" + base + ".0"))
                                && Files.readString(dir.resolve("logs/" + base + ".0")).equals(base + "\n"));
                        p.close();
                    }
                    assertThat(p.awaitEnd(0)).isTrue();
                    return null;
                }));
            }
            for (Future<?> f : all) {
                f.get(60, TimeUnit.SECONDS);
            }
        }
        assertThat(pumps.registeredStreams()).isZero();
        await().atMost(Duration.ofSeconds(10)).until(() -> pumps.pollerThread() == null);
        for (Path fifo : fifos) {
            assertThat(openDescriptors(fifo)).isZero();
        }
        // and the next registration starts a poller again
        Path again = Fifo.create(dir.resolve("again"));
        pump(again, "again", 1024);
        write(holder(again), "x\n");
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(dir.resolve("logs/again.0")) && log("again").equals("x\n"));
    }
}
