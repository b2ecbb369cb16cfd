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

import dev.berth.namespace.Capabilities;
import dev.berth.namespace.Namespace;
import dev.berth.namespace.NamespaceStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The namespaces' store in an H2 file through the Flyway schema, as the agent opens it: {@code default} is there from
 * the start, a namespace with its meta survives a restart (a new connection pool on the same file), and every put or
 * delete moves the table index.
 */
class JdbcNamespaceStoreTest {

    static final Capabilities CAPABILITIES = new Capabilities(List.of("exec"), null, List.of(), List.of("bridge"));

    @TempDir
    Path dataDir;

    void withStore(Consumer<NamespaceStore> work) {
        new ApplicationContextRunner()
                .withUserConfiguration(StateSchema.class, JdbcNamespaceStore.class)
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
                        JdbcClientAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class))
                .withPropertyValues("spring.datasource.url=jdbc:h2:file:" + dataDir.resolve("state/berth") + ";WRITE_DELAY=0",
                        "spring.datasource.username=sa")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    work.accept(context.getBean(NamespaceStore.class));
                });
    }

    @Test
    void defaultExistsAndNamespacesSurviveARestart() {
        withStore(store -> {
            assertThat(store.list()).containsExactly(new Namespace("default", "Default shared namespace", null, null, 1, 1));
            assertThat(store.tableIndex()).isEqualTo(1);
            store.put(new Namespace("team-a", "the a team", Map.of("owner", "a", "tier", "1"), CAPABILITIES, 7, 9));
            store.put(new Namespace("team-b", "", null, null, 10, 10));
            assertThat(store.tableIndex()).isEqualTo(10);
            store.delete("team-b", 11);
        });
        withStore(store -> {
            assertThat(store.list()).containsExactly(new Namespace("default", "Default shared namespace", null, null, 1, 1),
                    new Namespace("team-a", "the a team", Map.of("owner", "a", "tier", "1"), CAPABILITIES, 7, 9));
            assertThat(store.tableIndex()).isEqualTo(11);
        });
    }
}
