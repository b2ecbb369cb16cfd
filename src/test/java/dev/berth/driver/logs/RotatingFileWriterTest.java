package dev.berth.driver.logs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RotatingFileWriterTest {

    @TempDir
    Path dir;

    @Test
    void rotatesAtTheSizeLimitAndKeepsAtMostMaxFiles() throws IOException {
        try (RotatingFileWriter writer = new RotatingFileWriter(dir, "web.stdout", 3, 10)) {
            byte[] data = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ".getBytes(StandardCharsets.US_ASCII); // 46 bytes
            writer.write(data, 0, data.length);
            assertThat(writer.currentIndex()).isEqualTo(4);
        }
        assertThat(dir.resolve("web.stdout.0")).doesNotExist();
        assertThat(dir.resolve("web.stdout.1")).doesNotExist();
        assertThat(dir.resolve("web.stdout.2")).hasContent("klmnopqrst");
        assertThat(dir.resolve("web.stdout.3")).hasContent("uvwxyzABCD");
        assertThat(dir.resolve("web.stdout.4")).hasContent("EFGHIJ");
        try (var files = Files.list(dir)) {
            assertThat(files.count()).isEqualTo(3);
        }
    }

    @Test
    void aDirectBufferIsSplitAtTheSizeLimitAndConsumed() throws IOException {
        java.nio.ByteBuffer direct = java.nio.ByteBuffer.allocateDirect(64);
        direct.put("0123456789abcdefghijklmnopqrstuvwxy".getBytes(StandardCharsets.US_ASCII)).flip(); // 35 bytes
        try (RotatingFileWriter writer = new RotatingFileWriter(dir, "web.stdout", 5, 10)) {
            writer.write(direct);
            assertThat(direct.hasRemaining()).isFalse();
            assertThat(direct.limit()).isEqualTo(35);
            assertThat(writer.currentIndex()).isEqualTo(3);
        }
        assertThat(dir.resolve("web.stdout.0")).hasContent("0123456789");
        assertThat(dir.resolve("web.stdout.2")).hasContent("klmnopqrst");
        assertThat(dir.resolve("web.stdout.3")).hasContent("uvwxy");
    }

    @Test
    void continuesTheHighestExistingFileAfterARestart() throws IOException {
        Files.writeString(dir.resolve("web.stderr.0"), "0123456789");
        Files.writeString(dir.resolve("web.stderr.1"), "abc");
        Files.writeString(dir.resolve("web.stderr.x"), "not a log file");
        try (RotatingFileWriter writer = new RotatingFileWriter(dir, "web.stderr", 5, 10)) {
            assertThat(writer.currentIndex()).isEqualTo(1);
            byte[] data = "defghijkl".getBytes(StandardCharsets.US_ASCII);
            writer.write(data, 0, data.length);
        }
        assertThat(dir.resolve("web.stderr.1")).hasContent("abcdefghij");
        assertThat(dir.resolve("web.stderr.2")).hasContent("kl");
    }

    @Test
    void parsesOnlyNumericSuffixes() {
        assertThat(RotatingFileWriter.logIndex("web.stdout.12", "web.stdout.")).isEqualTo(12);
        assertThat(RotatingFileWriter.logIndex("web.stdout.", "web.stdout.")).isEqualTo(-1);
        assertThat(RotatingFileWriter.logIndex("web.stdout.1a", "web.stdout.")).isEqualTo(-1);
        assertThat(RotatingFileWriter.logIndex("web.stderr.1", "web.stdout.")).isEqualTo(-1);
    }

    @Test
    void rejectsNonsenseLimits() {
        assertThatIllegalArgumentException().isThrownBy(() -> new RotatingFileWriter(dir, "x", 0, 10));
        assertThatIllegalArgumentException().isThrownBy(() -> new RotatingFileWriter(dir, "x", 1, 0));
    }
}
