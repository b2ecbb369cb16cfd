package dev.berth.driver.logs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Real processes writing through a FIFO into rotating files, with the epoll pump and with the thread-per-stream fallback. */
class TaskLogPumpTest {

    @TempDir
    Path dir;

    static TaskLogPump start(String kind, Path fifo, RotatingFileWriter writer, String name) {
        TaskLogPump pump = kind.equals("epoll") ? TaskLogPump.start(fifo, writer, name) : ThreadLogPump.start(fifo, writer, name);
        assertThat(pump).isInstanceOf(kind.equals("epoll") ? EpollLogPump.class : ThreadLogPump.class);
        return pump;
    }

    @ParameterizedTest
    @ValueSource(strings = {"epoll", "thread"})
    void drainsAFastWriterIntoRotatedFilesWithoutLosingBytes(String kind) throws Exception {
        Path fifo = Fifo.create(dir.resolve("fifo/web.stdout.fifo"));
        assertThat(Fifo.isFifo(fifo)).isTrue();
        RotatingFileWriter writer = new RotatingFileWriter(dir.resolve("logs"), "web.stdout", 100, 64 * 1024);
        TaskLogPump pump = start(kind, fifo, writer, "berth-test-pump");
        // 2000 lines of 100 bytes: 200,000 bytes -> 4 files of 64 KiB max
        Process process = new ProcessBuilder("sh", "-c",
                "i=0; while [ $i -lt 2000 ]; do printf '%099d\\n' $i; i=$((i+1)); done")
                .redirectOutput(ProcessBuilder.Redirect.appendTo(fifo.toFile())).start();
        assertThat(process.waitFor()).isZero();
        assertThat(pump.awaitEnd(10_000)).isTrue();
        long total = 0;
        for (int i = 0; i <= 3; i++) {
            Path file = dir.resolve("logs/web.stdout." + i);
            assertThat(Files.size(file)).isLessThanOrEqualTo(64 * 1024);
            total += Files.size(file);
        }
        assertThat(total).isEqualTo(200_000);
        assertThat(dir.resolve("logs/web.stdout.4")).doesNotExist();
        assertThat(Files.readString(dir.resolve("logs/web.stdout.3"))).endsWith(String.format("%099d%n", 1999));
    }

    @ParameterizedTest
    @ValueSource(strings = {"epoll", "thread"})
    void aWriterHoldingTheFifoOpenSurvivesThePumpGoingAwayAndANewPumpDrainsOn(String kind) throws Exception {
        Path fifo = Fifo.create(dir.resolve("web.stderr.fifo"));
        Path go = Fifo.create(dir.resolve("go"));
        TaskLogPump first = start(kind, fifo, new RotatingFileWriter(dir.resolve("logs"), "web.stderr", 3, 1024), "berth-test-pump-1");
        // the launcher keeps a read-write descriptor (3<>) so the task never gets EPIPE while no agent reads
        Process process = new ProcessBuilder("sh", "-c",
                "exec 3<>/proc/self/fd/1; echo before; read line < " + go + "; echo after")
                .redirectOutput(ProcessBuilder.Redirect.appendTo(fifo.toFile())).start();
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(dir.resolve("logs/web.stderr.0"))
                && Files.readString(dir.resolve("logs/web.stderr.0")).equals("before\n"));
        first.close();
        TaskLogPump second = start(kind, fifo, new RotatingFileWriter(dir.resolve("logs"), "web.stderr", 3, 1024), "berth-test-pump-2");
        // the first pump really stopped reading (its close wakes its blocked read); the second must be reading before
        // the task writes its last line and exits, or the kernel drops that line with the last writer
        assertThat(second.awaitOpen(10_000)).isTrue();
        Files.writeString(go, "go\n");
        assertThat(process.waitFor()).isZero();
        assertThat(second.awaitEnd(10_000)).isTrue();
        assertThat(dir.resolve("logs/web.stderr.0")).hasContent("before\nafter");
    }
}
