package dev.berth.config;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class HostnamesTest {

    @Test
    void readsTheKernelFileTrimmed(@TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("hostname"), "node-7\n");

        assertThat(Hostnames.read(file, "fallback")).isEqualTo("node-7");
    }

    @Test
    void fallsBackWhenTheFileIsMissingOrEmpty(@TempDir Path tmp) throws Exception {
        assertThat(Hostnames.read(tmp.resolve("missing"), "from-env")).isEqualTo("from-env");
        assertThat(Hostnames.read(Files.writeString(tmp.resolve("empty"), "\n"), null)).isEqualTo("localhost");
    }
}
