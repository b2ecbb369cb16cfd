package dev.berth.state;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
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
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.berth.variables.NodeKeyFile;
import dev.berth.variables.VariableCipher;
import dev.berth.variables.VariableException;
import dev.berth.variables.VariableLock;
import dev.berth.variables.VariableMeta;
import dev.berth.variables.VariableStore;
import dev.berth.variables.VariableStore.Row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The variables' store in an H2 file through the Flyway schema, as the agent opens it: values are sealed before they
 * reach the database (the file holds no plaintext), a restart (a new connection pool on the same file) reads them back,
 * and a lost key file makes them unreadable, saying so.
 */
class JdbcVariableStoreTest {

    static final String SECRET = "correct-horse-battery-staple-7f3a";

    @TempDir
    Path dataDir;

    void withStore(Consumer<VariableStore> work) {
        withDatabase((store, jdbc) -> work.accept(store));
    }

    void withDatabase(java.util.function.BiConsumer<VariableStore, JdbcClient> work) {
        new ApplicationContextRunner()
                .withUserConfiguration(StateSchema.class, JdbcVariableStore.class)
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
                        JdbcClientAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class))
                .withPropertyValues("spring.datasource.url=jdbc:h2:file:" + dataDir.resolve("state/berth") + ";WRITE_DELAY=0",
                        "spring.datasource.username=sa")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    work.accept(context.getBean(VariableStore.class), context.getBean(JdbcClient.class));
                });
    }

    VariableCipher cipher() {
        return new VariableCipher(new NodeKeyFile(dataDir.resolve("keys/variables.key"))::loadOrCreate);
    }

    @Test
    void valuesAreSealedAtRestAndARestartReadsThemBack() throws Exception {
        VariableCipher cipher = cipher();
        VariableMeta meta = new VariableMeta("default", "app/db", new VariableLock("lock-1", Duration.ofSeconds(15), Duration.ofSeconds(20)),
                3, 1_000, 3, 1_000);
        withDatabase((store, jdbc) -> {
            store.put(new Row(meta, cipher.seal("default", "app/db", Map.of("password", SECRET))));
            jdbc.sql("CHECKPOINT SYNC").update();
        });

        byte[] file = Files.readAllBytes(dataDir.resolve("state/berth.mv.db"));
        assertThat(indexOf(file, "app/db".getBytes(StandardCharsets.UTF_8))).as("the path is metadata, stored in clear").isNotNegative();
        assertThat(indexOf(file, SECRET.getBytes(StandardCharsets.UTF_8))).as("the value never is").isNegative();
        assertThat(indexOf(file, SECRET.getBytes(StandardCharsets.UTF_16BE))).isNegative();
        assertThat(Files.getPosixFilePermissions(dataDir.resolve("keys/variables.key")))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));

        withStore(store -> {
            Row row = store.get("default", "app/db").orElseThrow();
            assertThat(row.meta()).isEqualTo(meta);
            assertThat(cipher().open("default", "app/db", row.items())).isEqualTo(Map.of("password", SECRET));
            assertThat(store.tableIndex()).isEqualTo(3);
            assertThat(store.locked()).containsExactly(meta);
            assertThatExceptionOfType(VariableException.class).as("a sealed value moved to another path does not open")
                    .isThrownBy(() -> cipher().open("default", "app/other", row.items()));
        });
    }

    @Test
    void aLostKeyFileLeavesTheVariablesUnreadableAndSaysSo() throws Exception {
        VariableCipher cipher = cipher();
        withStore(store -> store.put(new Row(VariableMeta.zero("default", "x").modified(1, 1),
                cipher.seal("default", "x", Map.of("k", "v")))));
        Files.delete(dataDir.resolve("keys/variables.key"));

        VariableCipher newKey = cipher();
        withStore(store -> assertThatExceptionOfType(VariableException.class)
                .isThrownBy(() -> newKey.open("default", "x", store.get("default", "x").orElseThrow().items()))
                .withMessageContaining("variable \"x\" is unreadable: it was encrypted with key " + cipher.keyId())
                .satisfies(e -> assertThat(e.kind()).isEqualTo(VariableException.Kind.UNREADABLE)));
    }

    @Test
    void listsByNamespaceAndLiteralPrefixAndDeletesMoveTheTableIndex() {
        VariableCipher cipher = cipher();
        withStore(store -> {
            for (String path : new String[] {"a_b/1", "axb/2", "a_b/3"}) {
                store.put(new Row(VariableMeta.zero("default", path).modified(path.charAt(4) - '0', 0), cipher.seal("default", path, Map.of("k", "v"))));
            }
            store.put(new Row(VariableMeta.zero("other", "a_b/9").modified(9, 0), cipher.seal("other", "a_b/9", Map.of("k", "v"))));
            assertThat(store.list("default", "a_b")).extracting(VariableMeta::path).as("'_' is no wildcard")
                    .containsExactly("a_b/1", "a_b/3");
            assertThat(store.list("*", "a_b")).extracting(VariableMeta::namespace).containsExactly("default", "default", "other");
            store.delete("default", "a_b/1", 12);
            assertThat(store.get("default", "a_b/1")).isEmpty();
            assertThat(store.tableIndex()).isEqualTo(12);
        });
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
