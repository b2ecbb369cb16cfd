package dev.berth.alloc.fs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.config.Sleeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class FrameStreamerTest {

    private static final Pattern FRAME = Pattern.compile("\\{(?:\"Offset\":(\\d+)(?:,\"Data\":\"([^\"]*)\")?,\"File\":\"([^\"]*)\"(?:,\"FileEvent\":\"([^\"]*)\")?)?}");

    @TempDir
    Path dir;

    record Frame(long offset, String data, String file, String event) {
    }

    static List<Frame> frames(String body) {
        List<Frame> frames = new ArrayList<>();
        Matcher m = FRAME.matcher(body);
        int end = 0;
        while (m.find()) {
            assertThat(m.start()).as("frames are back to back").isEqualTo(end);
            end = m.end();
            if (m.group(1) == null) {
                frames.add(new Frame(-1, null, null, null)); // heartbeat
            } else {
                String data = m.group(2) == null ? "" : new String(Base64.getDecoder().decode(m.group(2)), StandardCharsets.UTF_8);
                frames.add(new Frame(Long.parseLong(m.group(1)), data, m.group(3), m.group(4)));
            }
        }
        assertThat(end).isEqualTo(body.length());
        return frames;
    }

    @Test
    void streamsAFileFromAnOffsetAsFrames() throws Exception {
        Path file = Files.writeString(dir.resolve("out.txt"), "hello world");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new FrameStreamer().streamFile(file, "alloc/data/out.txt", 6, FrameStreamer.Origin.START, false, false, out, () -> false);
        assertThat(frames(out.toString(StandardCharsets.UTF_8)))
                .containsExactly(new Frame(11, "world", "alloc/data/out.txt", null));
    }

    @Test
    void originEndCountsBackFromTheEnd() throws Exception {
        Path file = Files.writeString(dir.resolve("out.txt"), "hello world");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new FrameStreamer().streamFile(file, "f", 3, FrameStreamer.Origin.END, false, true, out, () -> false);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("rld");
    }

    @Test
    void logsAcrossRotatedFilesInOrderWithOffsetsOverAllFiles() throws Exception {
        Files.writeString(dir.resolve("web.stdout.0"), "aaaa");
        Files.writeString(dir.resolve("web.stdout.1"), "bbbb");
        Files.writeString(dir.resolve("web.stdout.2"), "cc");
        Files.writeString(dir.resolve("web.stderr.0"), "nope");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new FrameStreamer().streamLogs(dir, "web", "stdout", 6, FrameStreamer.Origin.START, false, true, out, () -> false);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("bbcc");

        out.reset();
        new FrameStreamer().streamLogs(dir, "web", "stdout", 5, FrameStreamer.Origin.END, false, false, out, () -> false);
        assertThat(frames(out.toString(StandardCharsets.UTF_8))).containsExactly(
                new Frame(4, "bbb", "alloc/logs/web.stdout.1", null),
                new Frame(2, "cc", "alloc/logs/web.stdout.2", null));
    }

    @Test
    void missingLogsWithoutFollowAreNotFound() {
        assertThatExceptionOfType(FsAccessException.class)
                .isThrownBy(() -> new FrameStreamer().streamLogs(dir, "web", "stdout", 0, FrameStreamer.Origin.START, false,
                        false, new ByteArrayOutputStream(), () -> false))
                .satisfies(ex -> assertThat(ex.kind()).isEqualTo(FsAccessException.Kind.NOT_FOUND));
    }

    @Test
    void followingPicksUpAppendsAndRotationAndSendsHeartbeats() throws Exception {
        Files.writeString(dir.resolve("web.stdout.0"), "one;");
        AtomicInteger polls = new AtomicInteger();
        // each "sleep" of the follower makes the next thing happen in the log directory, so the test is exact
        Sleeper script = (d, cancel) -> {
            switch (polls.incrementAndGet()) {
                case 1 -> append("web.stdout.0", "two;");
                case 2 -> { } // nothing new: one idle poll
                case 3 -> write(dir.resolve("web.stdout.1"), "three;"); // rotation
                default -> { }
            }
            return true;
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new FrameStreamer(script, Duration.ofMillis(200), Duration.ofMillis(400))
                .streamLogs(dir, "web", "stdout", 0, FrameStreamer.Origin.START, true, false, out, () -> polls.get() >= 6);
        List<Frame> frames = frames(out.toString(StandardCharsets.UTF_8));
        assertThat(frames).filteredOn(f -> f.offset() >= 0).extracting(Frame::data).containsExactly("one;", "two;", "three;");
        assertThat(frames).filteredOn(f -> f.offset() >= 0).extracting(Frame::file)
                .containsExactly("alloc/logs/web.stdout.0", "alloc/logs/web.stdout.0", "alloc/logs/web.stdout.1");
        assertThat(frames).filteredOn(f -> f.offset() < 0).isNotEmpty();
    }

    @Test
    void aTruncatedFileIsReportedAndReadFromTheStart() throws Exception {
        Path file = Files.writeString(dir.resolve("app.log"), "0123456789");
        AtomicInteger polls = new AtomicInteger();
        Sleeper script = (d, cancel) -> {
            if (polls.incrementAndGet() == 1) {
                write(file, "new");
            }
            return true;
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new FrameStreamer(script, Duration.ofMillis(200), Duration.ofSeconds(1))
                .streamFile(file, "app.log", 0, FrameStreamer.Origin.START, true, false, out, () -> polls.get() >= 3);
        assertThat(frames(out.toString(StandardCharsets.UTF_8))).containsExactly(
                new Frame(10, "0123456789", "app.log", null),
                new Frame(0, "", "app.log", "file truncated"),
                new Frame(3, "new", "app.log", null));
    }

    // the scripted sleepers below run these; a Sleeper may only throw InterruptedException
    private void append(String name, String text) {
        try {
            Files.writeString(dir.resolve(name), text, java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
