package dev.berth.state;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.berth.config.HeapTrimmer;

/**
 * Empties H2's page cache when the agent is quiet ({@link HeapTrimmer}). The cache is bounded ({@code CACHE_SIZE} in
 * the data source URL) but stays full of the pages a busy phase read and wrote, most of them old versions of rows long
 * gone, for as long as the agent runs, a sizeable share of an idle agent's heap after many allocations were created and
 * destroyed (figures in docs/benchmarks/footprint.md). Setting the cache size again (to the value it has) is H2's own
 * way to empty it ({@code SET CACHE_SIZE}: the store takes the new bound and clears its cache); it fills again on use.
 * Runs after {@link H2StoreCompaction}, whose reads fill it.
 */
@Component
@Order(Ordered.LOWEST_PRECEDENCE)
class H2CacheRelease implements HeapTrimmer.QuietRelease {

    private final JdbcClient jdbc;

    H2CacheRelease(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void release() {
        int kb = cacheSizeKb();
        if (kb > 0) {
            jdbc.sql("SET CACHE_SIZE " + kb).update();
        }
    }

    /** The page cache's bound in KB, as the data source URL (or the default) set it. */
    int cacheSizeKb() {
        return jdbc.sql("SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'CACHE_SIZE'")
                .query(String.class).optional().map(Integer::parseInt).orElse(0);
    }
}
