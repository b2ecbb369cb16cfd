package dev.berth.state;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcClientAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.berth.volume.DynamicHostVolume;
import dev.berth.volume.HostVolumeStore;

import static org.assertj.core.api.Assertions.assertThat;

/** The dynamic host volumes' store in an H2 file through the Flyway schema: every field survives a reopen. */
class JdbcHostVolumeStoreTest {

    @TempDir
    Path dataDir;

    void withStore(Consumer<HostVolumeStore> work) {
        new ApplicationContextRunner()
                .withUserConfiguration(StateSchema.class, JdbcHostVolumeStore.class)
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
                        JdbcClientAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class))
                .withPropertyValues("spring.datasource.url=jdbc:h2:file:" + dataDir.resolve("state/berth") + ";WRITE_DELAY=0",
                        "spring.datasource.username=sa")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    work.accept(context.getBean(HostVolumeStore.class));
                });
    }

    @Test
    void aVolumeIsReadBackWholeAfterAReopenAndGoneAfterADelete() {
        DynamicHostVolume v = new DynamicHostVolume("prod", "4f1b9f6e-7c51-4a7d-9d3c-0a0e8f1c2b3d", "data", "mkdir", "default", "node-1",
                List.of(new DynamicHostVolume.Constraint("${attr.kernel.name}", "linux", "=")), 10, 20, 0,
                List.of(new DynamicHostVolume.Capability("file-system", "single-node-multi-writer")), Map.of("mode", "0755", "uid", "1000"),
                "/srv/host_volumes/4f1b", "ready", 7, 1_700_000_000_000_000_000L, 9, 1_700_000_000_500_000_000L);
        DynamicHostVolume other = new DynamicHostVolume("default", "0a", "other", "", "default", "node-1", null, 0, 0, 0, null,
                null, "/srv/other", "ready", 8, 1, 8, 1);
        withStore(store -> {
            store.put(v);
            store.put(other);
        });
        withStore(store -> {
            assertThat(store.all()).containsExactly(other, v);
            store.delete(other.id());
        });
        withStore(store -> assertThat(store.all()).containsExactly(v));
    }
}
