package dev.berth.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import dev.berth.host.Tmpfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/** A context started with a random data dir uses one dir and leaves nothing behind when it closes. */
class ThrowawayDataDirTest {

    private static final String RANDOM_DATA_DIR = "berth.data-dir=${java.io.tmpdir}/berth-throwaway-it-${random.uuid}";

    @Configuration(proxyBeanMethods = false)
    static class Empty {
    }

    @Test
    void aContextResolvesItsRandomDataDirOnceAndRemovesItOnClose(@TempDir Path outside) throws IOException {
        Path kept = Files.writeString(outside.resolve("kept"), "not the test's");
        Path dir;
        try (ConfigurableApplicationContext context = start(RANDOM_DATA_DIR)) {
            String first = context.getEnvironment().getProperty("berth.data-dir");
            assertThat(context.getEnvironment().getProperty("berth.data-dir")).isEqualTo(first);
            assertThat(context.getEnvironment().getProperty("spring.datasource.url")).startsWith("jdbc:h2:file:" + first + "/state/");
            dir = Path.of(first);
            assertThat(dir.getFileName().toString()).startsWith("berth-throwaway-it-");
            Files.createDirectories(dir.resolve("alloc/a1/t/secrets"));
            Files.writeString(dir.resolve("alloc/a1/t/secrets/token"), "s");
            Files.createSymbolicLink(dir.resolve("alloc/a1/link-to-outside"), outside);
            Files.createSymbolicLink(dir.resolve("alloc/a1/link-to-file"), kept);
        }

        assertThat(dir).doesNotExist();
        assertThat(kept).hasContent("not the test's");
    }

    @Test
    void aTmpfsUnderTheDataDirIsUnmountedBeforeTheDirIsRemoved() throws IOException {
        assumeThat(Tmpfs.canMount()).as("mounting a tmpfs needs root").isTrue();
        Path dir;
        Path secrets;
        try (ConfigurableApplicationContext context = start(RANDOM_DATA_DIR)) {
            dir = Path.of(context.getEnvironment().getProperty("berth.data-dir"));
            secrets = Files.createDirectories(dir.resolve("alloc/a1/t/secrets"));
            Tmpfs.mount(secrets, 1 << 20);
            Files.writeString(secrets.resolve("token"), "s");
            assertThat(Tmpfs.isMountPoint(secrets)).isTrue();
        }

        assertThat(Tmpfs.mountsUnder(dir.getParent())).noneMatch(m -> m.startsWith(dir));
        assertThat(dir).doesNotExist();
    }

    @Test
    void aFixedDataDirIsLeftAlone(@TempDir Path dataDir) throws IOException {
        Files.writeString(dataDir.resolve("state"), "kept");

        start("berth.data-dir=" + dataDir).close();

        assertThat(dataDir.resolve("state")).hasContent("kept");
    }

    private static ConfigurableApplicationContext start(String dataDir) {
        // as a command-line argument, where it wins over ./application.yml (like @SpringBootTest's properties)
        return new SpringApplicationBuilder(Empty.class).web(WebApplicationType.NONE).logStartupInfo(false)
                .run("--" + dataDir, "--spring.main.banner-mode=off");
    }
}
