package dev.berth.state;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.h2.mvstore.MVStore;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A process killed with SIGKILL while it compacts H2's store loses nothing it had committed: a child JVM writes
 * allocations one commit at a time, as the agent does, and compacts after every batch; it is killed while it says it is
 * compacting (the third time): by the test, or by itself after H2 rewrote the pages and before it committed them, or
 * after the unused chunks were dropped and before the shortened chunk list was committed. The database opened again
 * holds exactly what the child reported committed.
 */
class H2CompactionCrashTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"by-the-test", "between-rewrite-and-commit", "between-drop-and-commit"})
    void killedDuringACompactionTheStoreOpensWithEveryCommittedChange(String when) throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("state") + H2StoreCompactionTest.OPTIONS + ";RETENTION_TIME=100";
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Child.class.getName(), url, when)
                .redirectErrorStream(true).start();
        Map<String, String> committed = new TreeMap<>();
        int compactions = 0;
        int killAt = when.equals("by-the-test") ? 3 : Integer.MAX_VALUE; // else the child kills itself
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; compactions < killAt && (line = out.readLine()) != null; ) {
                String[] word = line.split(" ");
                switch (word[0]) {
                    case "committed" -> committed.put(word[1], word[2]);
                    case "deleted" -> committed.remove(word[1]);
                    case "compacting" -> compactions++;
                    default -> throw new AssertionError("child: " + line);
                }
            }
        } finally {
            child.destroyForcibly(); // SIGKILL: no shutdown hook, no clean close of the store
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(compactions).as("the child reached its third compaction").isGreaterThanOrEqualTo(3);
        assertThat(child.exitValue()).as("killed by SIGKILL").isEqualTo(137);

        SingleConnectionDataSource reopened = new SingleConnectionDataSource(url, "sa", "", true);
        try {
            JdbcClient jdbc = JdbcClient.create(reopened);
            Map<String, String> found = new TreeMap<>();
            jdbc.sql("SELECT id, status FROM alloc").query((rs, n) -> found.put(rs.getString(1), rs.getString(2))).list();
            assertThat(found).hasSize(committed.size()).isEqualTo(committed);
        } finally {
            reopened.destroy();
        }
    }

    private static void killSelf() throws Exception {
        new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
        throw new AssertionError("still alive after SIGKILL");
    }

    /** The child: batches of allocations written, run and partly destroyed, a compaction after each batch. */
    public static final class Child {

        public static void main(String[] args) throws Exception {
            SingleConnectionDataSource dataSource = new SingleConnectionDataSource(args[0], "sa", "", true);
            JdbcClient jdbc = JdbcClient.create(dataSource);
            jdbc.sql("CREATE TABLE alloc (id VARCHAR(64) PRIMARY KEY, status VARCHAR(16), doc CLOB)").update();
            Map<String, Integer> updates = new HashMap<>();
            for (int batch = 0; ; batch++) {
                for (int i = 0; i < 100; i++) {
                    String id = "alloc-" + batch + "-" + i;
                    String doc = ("{\"ID\":\"" + id + "\"}").repeat(40);
                    jdbc.sql("INSERT INTO alloc VALUES (?, 'pending', ?)").params(id, doc).update();
                    System.out.println("committed " + id + " pending");
                    for (String status : List.of("running", "complete")) {
                        jdbc.sql("UPDATE alloc SET status = ?, doc = ? WHERE id = ?").params(status, doc + status, id).update();
                        System.out.println("committed " + id + " " + status);
                        updates.merge(id, 1, Integer::sum);
                    }
                    if (i % 3 != 0) {
                        jdbc.sql("DELETE FROM alloc WHERE id = ?").param(id).update();
                        System.out.println("deleted " + id);
                    }
                }
                Thread.sleep(150); // the batch's chunks grow older than the retention time, as at a quiet look
                System.out.println("compacting");
                System.out.flush();
                try (var connection = dataSource.getConnection()) {
                    MVStore store = H2StoreCompaction.store(connection).orElseThrow();
                    if (batch == 2 && args[1].equals("between-rewrite-and-commit")) {
                        assertThat(store.compact(H2StoreCompaction.TARGET_FILL_RATE, H2StoreCompaction.BYTES_PER_ROUND))
                                .as("pages rewritten, not yet committed").isTrue();
                        killSelf();
                    }
                    if (batch == 2 && args[1].equals("between-drop-and-commit")) {
                        while (store.compact(H2StoreCompaction.TARGET_FILL_RATE, H2StoreCompaction.BYTES_PER_ROUND)) {
                            store.commit();
                        }
                        int chunks = H2StoreCompaction.chunks(store);
                        store.executeFilestoreOperation(store.getFileStore()::dropUnusedChunks);
                        assertThat(H2StoreCompaction.chunks(store)).as("chunks dropped, not yet committed").isLessThan(chunks);
                        killSelf();
                    }
                    H2StoreCompaction.compact(store);
                }
            }
        }
    }
}
