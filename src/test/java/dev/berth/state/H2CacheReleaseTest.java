package dev.berth.state;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import static org.assertj.core.api.Assertions.assertThat;

/** What a busy phase left in H2's page cache goes when the agent is quiet; the bound and the data stay. */
class H2CacheReleaseTest {

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
    void releasingEmptiesThePageCacheAndKeepsItsBound() {
        String url = "jdbc:h2:file:" + dir.resolve("state") + ";WRITE_DELAY=0;CACHE_SIZE=4096";
        JdbcClient setup = JdbcClient.create(open(url));
        setup.sql("CREATE TABLE doc (id INT PRIMARY KEY, body VARCHAR(4000))").update();
        setup.sql("INSERT INTO doc SELECT X, REPEAT('x', 2000) || X FROM SYSTEM_RANGE(0, 2999)").update();
        dataSource.destroy(); // the database closes: opened again, its pages are read from the file
        JdbcClient jdbc = JdbcClient.create(open(url));
        H2CacheRelease release = new H2CacheRelease(jdbc);
        assertThat(release.cacheSizeKb()).isEqualTo(4096);

        assertThat(jdbc.sql("SELECT COUNT(*) FROM doc WHERE body LIKE 'x%'").query(Long.class).single()).isEqualTo(3_000);
        assertThat(info(jdbc, "info.CACHE_SIZE")).as("MB of pages cached by the scan").isGreaterThanOrEqualTo(2);
        String expected = "x".repeat(2000) + 2999;
        assertThat(row(jdbc, 2999)).isEqualTo(expected);
        long reads = info(jdbc, "info.FILE_READ");
        assertThat(row(jdbc, 2999)).isEqualTo(expected);
        assertThat(info(jdbc, "info.FILE_READ")).as("served from the cache").isEqualTo(reads);

        release.release();

        assertThat(info(jdbc, "info.CACHE_SIZE")).isZero();
        assertThat(row(jdbc, 2999)).isEqualTo(expected);
        assertThat(info(jdbc, "info.FILE_READ")).as("read from the file again").isGreaterThan(reads);
        assertThat(release.cacheSizeKb()).as("the bound stays").isEqualTo(4096);
    }

    private SingleConnectionDataSource open(String url) {
        dataSource = new SingleConnectionDataSource(url, "sa", "", true);
        return dataSource;
    }

    private static String row(JdbcClient jdbc, int id) {
        return jdbc.sql("SELECT body FROM doc WHERE id = ?").param(id).query(String.class).single();
    }

    /** One of H2's own figures ({@code info.CACHE_SIZE}: MB of pages cached; {@code info.FILE_READ}: pages read). */
    private static long info(JdbcClient jdbc, String name) {
        return jdbc.sql("SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = ?").param(name)
                .query(String.class).optional().map(Long::parseLong).orElseThrow();
    }
}
