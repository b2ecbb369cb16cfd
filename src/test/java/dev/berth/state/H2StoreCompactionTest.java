package dev.berth.state;

import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.h2.mvstore.FileStore;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.WriteBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import dev.berth.config.Sleeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.awaitility.Awaitility.await;

/**
 * The chunks that many small commits leave in H2's store (the agent commits every change on its own, with
 * {@code WRITE_DELAY=0}, so H2's background compaction never runs) go at the quiet compaction, and the data stay.
 */
class H2StoreCompactionTest {

    /** The agent's data source options; a short retention time so that the test need not wait H2's 45 s. */
    static final String OPTIONS = ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0;LOB_TIMEOUT=10000;CACHE_SIZE=4096";

    @TempDir
    Path dir;

    private SingleConnectionDataSource dataSource;

    @AfterEach
    void close() {
        if (dataSource != null) {
            dataSource.destroy();
        }
    }

    @Test
    void compactionDropsTheChunksSmallCommitsLeftAndTheDataSurviveAnAbruptClose() {
        String url = "jdbc:h2:file:" + dir.resolve("state") + OPTIONS + ";RETENTION_TIME=500";
        JdbcClient jdbc = JdbcClient.create(open(url));
        Map<String, String> kept = writeHistory(jdbc, 300);
        long before = info(jdbc, "info.CHUNK_COUNT");
        assertThat(before).as("chunks after %d small commits", 300 * 5).isGreaterThan(100);

        H2StoreCompaction compaction = compaction(dataSource);
        assertThat(compaction.pending()).as("over %d chunks: the heap trimmer's next quiet look compacts", H2StoreCompaction.PENDING_CHUNKS)
                .isTrue();
        // a chunk is rewritten or dropped only once it is older than the retention time, as in H2's own housekeeping
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            compaction.compactNow();
            assertThat(info(jdbc, "info.CHUNK_COUNT")).isLessThanOrEqualTo(10);
        });
        assertThat(compaction.pending()).isFalse();
        assertThat(documents(jdbc)).isEqualTo(kept);

        jdbc.sql("SHUTDOWN IMMEDIATELY").update(); // no clean close (which would compact by itself): as a crash leaves it
        dataSource.destroy();
        JdbcClient reopened = JdbcClient.create(open(url));
        assertThat(documents(reopened)).isEqualTo(kept);
        // the dropped chunks stay dropped; not "<= 10" again: opening a store shut down this way writes chunks of its own
        // (5 -> 7 here), and under load the wait above can end at 9 or 10 while the compaction is still converging
        assertThat(info(reopened, "info.CHUNK_COUNT")).isLessThan(before / 4);
    }

    @Test
    void oneQuietReleaseAlsoReachesTheChunksThatWereTooYoungForItsFirstPass() {
        String url = "jdbc:h2:file:" + dir.resolve("state") + OPTIONS + ";RETENTION_TIME=2000";
        JdbcClient jdbc = JdbcClient.create(open(url));
        Map<String, String> kept = writeHistory(jdbc, 200);
        assertThat(info(jdbc, "info.CHUNK_COUNT")).isGreaterThan(100);

        compaction(dataSource).release(); // once, as the heap trimmer does at a quiet look

        await().atMost(Duration.ofSeconds(60)).untilAsserted(
                () -> assertThat(info(jdbc, "info.CHUNK_COUNT")).isLessThanOrEqualTo(10));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(info(jdbc, "info.CACHE_SIZE"))
                .as("the follow-up pass leaves H2's page cache empty").isZero());
        assertThat(documents(jdbc)).isEqualTo(kept);
    }

    @Test
    void theFollowUpTakesTheYoungChunksAsTheyComeOfAgeAndLeavesTheHeapToTheNextQuietLook() {
        String url = "jdbc:h2:file:" + dir.resolve("state") + OPTIONS + ";RETENTION_TIME=4000";
        JdbcClient jdbc = JdbcClient.create(open(url));
        Map<String, String> kept = writeHistory(jdbc, 200);
        List<Duration> waits = new CopyOnWriteArrayList<>();
        List<Boolean> pendingWhileWaiting = new CopyOnWriteArrayList<>();
        Duration poll = Duration.ofMillis(200);
        H2StoreCompaction[] compaction = new H2StoreCompaction[1];
        compaction[0] = new H2StoreCompaction(dataSource, new H2CacheRelease(JdbcClient.create(dataSource)), poll,
                (wait, cancel) -> {
                    waits.add(wait);
                    pendingWhileWaiting.add(compaction[0].pending());
                    return Sleeper.system().sleep(wait, cancel); // H2's clock must move: the chunks come of age
                });

        compaction[0].release(); // the quiet look right after the busy phase: its chunks are all younger than 4 s

        await().atMost(Duration.ofSeconds(60)).until(() -> !compaction[0].followingUp());
        assertThat(info(jdbc, "info.CHUNK_COUNT")).isLessThanOrEqualTo(H2StoreCompaction.PENDING_CHUNKS);
        assertThat(waits).as("a look every poll, not one wait of the whole retention time").isNotEmpty()
                .allSatisfy(wait -> assertThat(wait).isLessThanOrEqualTo(poll));
        assertThat(pendingWhileWaiting).as("the heap trimmer is not sent to compact what the follow-up is on")
                .containsOnly(false);
        assertThat(compaction[0].pending()).as("the dropped chunks' heap goes back at the next quiet look").isTrue();
        compaction[0].release();
        assertThat(compaction[0].pending()).as("once").isFalse();
        assertThat(documents(jdbc)).isEqualTo(kept);
    }

    @Test
    void compactionWritesChunksThatFitH2sFirstWriteBufferSoItDoesNotGrowForGood() throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("state") + OPTIONS + ";RETENTION_TIME=0";
        JdbcClient jdbc = JdbcClient.create(open(url));
        Map<String, String> kept = writeHistory(jdbc, 900, 400); // ~2.4 MB of live documents in a thousand chunks
        long before = info(jdbc, "info.CHUNK_COUNT");
        assertThat(writeBufferBytes()).as("H2's pooled write buffer, as every small commit leaves it")
                .isEqualTo(1 << 20);

        compaction(dataSource).compactNow();

        assertThat(info(jdbc, "info.CHUNK_COUNT")).isLessThan(before / 4);
        // H2 keeps its write buffers pooled, and a buffer grown for a big chunk (up to 4 MB) stays grown: one pass
        // rewriting all live pages into one chunk kept 3 MB on the agent's heap for good after 1,000 allocations
        assertThat(writeBufferBytes()).as("no chunk larger than the first buffer was written").isEqualTo(1 << 20);
        assertThat(documents(jdbc)).isEqualTo(kept);
    }

    /** The capacity of the write buffers H2's file store keeps for its next commits (its private pool, read here). */
    private long writeBufferBytes() throws Exception {
        try (Connection connection = dataSource.getConnection()) {
            MVStore store = H2StoreCompaction.store(connection).orElseThrow();
            Field pool = FileStore.class.getDeclaredField("writeBufferPool");
            pool.setAccessible(true);
            long bytes = 0;
            for (Object buffer : (Collection<?>) pool.get(store.getFileStore())) {
                bytes += ((WriteBuffer) buffer).capacity();
            }
            return bytes;
        }
    }

    @Test
    void theFollowUpLooksEveryPollUntilTheStoreIsCompactedOrEveryChunkWasOldEnough() {
        Duration poll = H2StoreCompaction.FOLLOW_UP_POLL;
        int retention = 45_000;
        int many = H2StoreCompaction.PENDING_CHUNKS + 1;
        assertThat(H2StoreCompaction.nextWait(0, 3_000, retention, poll)).isEqualTo(poll);
        assertThat(H2StoreCompaction.nextWait(40_000, 1_500, retention, poll)).isEqualTo(poll);
        assertThat(H2StoreCompaction.nextWait(43_500, many, retention, poll))
                .as("the last look when every chunk is old enough").isEqualTo(Duration.ofMillis(2_500));
        assertThat(H2StoreCompaction.nextWait(46_000, many, retention, poll)).as("done: that look was made").isNull();
        assertThat(H2StoreCompaction.nextWait(10_000, H2StoreCompaction.PENDING_CHUNKS, retention, poll))
                .as("compacted before the retention time was up").isNull();
    }

    @Test
    void aDatabaseThatCannotBeReachedIsLeftAloneQuietly() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("file"), "x");
        H2StoreCompaction compaction = compaction(open("jdbc:h2:file:" + notADirectory.resolve("state") + OPTIONS));

        assertThat(compaction.compactNow()).isEqualTo(-1);
        assertThatCode(compaction::release).doesNotThrowAnyException();
    }

    @Test
    void anInMemoryDatabaseHasNoChunksAndNothingToRewrite() {
        JdbcClient jdbc = JdbcClient.create(open("jdbc:h2:mem:compact-" + System.nanoTime()));
        writeHistory(jdbc, 20);

        assertThat(compaction(dataSource).compactNow()).isGreaterThanOrEqualTo(0);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM alloc").query(Long.class).single()).isEqualTo(7);
    }

    /**
     * What the agent's state store does per allocation, one commit at a time: the allocation is written, runs, its
     * task events are written and the index moves; two in three are then destroyed. Returns the rows left.
     */
    static Map<String, String> writeHistory(JdbcClient jdbc, int allocations) {
        return writeHistory(jdbc, allocations, 40);
    }

    /** As above, each document {@code size} times 20 bytes. */
    static Map<String, String> writeHistory(JdbcClient jdbc, int allocations, int size) {
        jdbc.sql("CREATE TABLE IF NOT EXISTS alloc (id VARCHAR(64) PRIMARY KEY, status VARCHAR(16), doc CLOB)").update();
        jdbc.sql("CREATE TABLE IF NOT EXISTS event (id BIGINT AUTO_INCREMENT PRIMARY KEY, alloc VARCHAR(64), msg VARCHAR(200))")
                .update();
        jdbc.sql("CREATE TABLE IF NOT EXISTS idx (name VARCHAR(16) PRIMARY KEY, v BIGINT)").update();
        jdbc.sql("MERGE INTO idx VALUES ('alloc', 0)").update();
        Map<String, String> kept = new TreeMap<>();
        for (int i = 0; i < allocations; i++) {
            String id = "alloc-" + i;
            String doc = ("{\"ID\":\"" + id + "\"}").repeat(size);
            jdbc.sql("INSERT INTO alloc VALUES (?, 'pending', ?)").params(id, doc).update();
            jdbc.sql("UPDATE alloc SET status = 'running', doc = ? WHERE id = ?").params(doc + "running", id).update();
            jdbc.sql("INSERT INTO event (alloc, msg) VALUES (?, 'Started')").param(id).update();
            jdbc.sql("UPDATE idx SET v = v + 1 WHERE name = 'alloc'").update();
            kept.put(id, doc + "running");
        }
        for (int i = 0; i < allocations; i++) {
            if (i % 3 != 0) {
                jdbc.sql("DELETE FROM alloc WHERE id = ?").param("alloc-" + i).update();
                kept.remove("alloc-" + i);
            }
        }
        return kept;
    }

    static Map<String, String> documents(JdbcClient jdbc) {
        Map<String, String> rows = new TreeMap<>();
        jdbc.sql("SELECT id, doc FROM alloc WHERE status = 'running'")
                .query((rs, n) -> rows.put(rs.getString(1), rs.getString(2))).list();
        return rows;
    }

    /** One of H2's own figures ({@code info.CHUNK_COUNT}: chunks the store holds, each a record on the heap). */
    static long info(JdbcClient jdbc, String name) {
        return jdbc.sql("SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = ?").param(name)
                .query(String.class).optional().map(Long::parseLong).orElseThrow();
    }

    private static H2StoreCompaction compaction(SingleConnectionDataSource dataSource) {
        return new H2StoreCompaction(dataSource, new H2CacheRelease(JdbcClient.create(dataSource)));
    }

    private SingleConnectionDataSource open(String url) {
        dataSource = new SingleConnectionDataSource(url, "sa", "", true);
        return dataSource;
    }
}
