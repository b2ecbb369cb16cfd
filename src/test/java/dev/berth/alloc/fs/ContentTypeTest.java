package dev.berth.alloc.fs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * {@code fs/stat} of a task's log FIFO ({@code <task>/.berth/stdout.fifo}) hung the request forever: sniffing the
 * content type opened the FIFO for reading, which blocks until a writer appears and then steals the log pump's bytes.
 */
class ContentTypeTest {

    @TempDir
    Path dir;

    @Test
    void onlyRegularFilesAreSniffed() throws Exception {
        Path fifo = dir.resolve("stdout.fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        String type = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> AllocFileSystem.detectContentType(fifo));
        assertThat(type).isEqualTo("application/octet-stream");

        Path text = Files.writeString(dir.resolve("a.txt"), "hello\n");
        assertThat(AllocFileSystem.detectContentType(text)).isEqualTo("text/plain; charset=utf-8");
        Path link = Files.createSymbolicLink(dir.resolve("link"), fifo);
        assertThat(assertTimeoutPreemptively(Duration.ofSeconds(5), () -> AllocFileSystem.detectContentType(link)))
                .isEqualTo("application/octet-stream");
    }
}
