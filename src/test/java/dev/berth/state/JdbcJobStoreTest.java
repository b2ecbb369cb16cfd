package dev.berth.state;

import java.time.Clock;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import dev.berth.job.JobStore.Document;
import dev.berth.job.JobStore.JobDocument;
import dev.berth.job.JobStore.PeriodicLaunch;

import static org.assertj.core.api.Assertions.assertThat;

/** The job store and the node identity through the Flyway schema: puts replace by key, trims keep the newest versions. */
@JdbcTest
@Import({JdbcJobStore.class, JdbcNodeIdentityStore.class, JdbcJobStoreTest.ClockConfig.class})
class JdbcJobStoreTest {

    @Autowired
    JdbcJobStore store;

    @Autowired
    JdbcNodeIdentityStore identity;

    @Test
    void versionsAreKeptPerJobAndTrimmedToTheNewest() {
        for (int v = 0; v < 5; v++) {
            store.putJobVersion(new JobDocument("default", "web", v, "{\"Version\":" + v + "}"));
        }
        store.putJobVersion(new JobDocument("default", "web", 4, "{\"Version\":4,\"again\":true}"));
        store.putJobVersion(new JobDocument("other", "web", 0, "{}"));

        store.trimVersions("default", "web", 2);

        assertThat(store.jobVersions()).containsExactlyInAnyOrder(
                new JobDocument("default", "web", 3, "{\"Version\":3}"),
                new JobDocument("default", "web", 4, "{\"Version\":4,\"again\":true}"),
                new JobDocument("other", "web", 0, "{}"));

        store.putEvaluation(new Document("e1", "default", "web", "{\"a\":1}"));
        store.putEvaluation(new Document("e2", "other", "web", "{}"));
        store.purgeJob("default", "web");

        assertThat(store.jobVersions()).extracting(JobDocument::namespace).containsExactly("other");
        assertThat(store.evaluations()).containsExactly(new Document("e2", "other", "web", "{}"));
    }

    @Test
    void placementsAndLaunchesAreReplacedByKeyAndDeleted() {
        store.putPlacement(new Document("a1", "default", "web", "{\"n\":1}"));
        store.putPlacement(new Document("a1", "default", "web", "{\"n\":2}"));
        store.putPlacement(new Document("a2", "default", "web", "x".repeat(100_000)));
        store.deletePlacement("a2");
        assertThat(store.placements()).containsExactly(new Document("a1", "default", "web", "{\"n\":2}"));

        store.putPeriodicLaunch(new PeriodicLaunch("default", "cron", 1_000));
        store.putPeriodicLaunch(new PeriodicLaunch("default", "cron", 2_000));
        store.putPeriodicLaunch(new PeriodicLaunch("default", "other", 5));
        store.deletePeriodicLaunch("default", "other");
        assertThat(store.periodicLaunches()).isEqualTo(List.of(new PeriodicLaunch("default", "cron", 2_000)));
    }

    @Test
    void theNodeIdIsCreatedOnceAndThenLoaded() {
        String first = identity.loadOrCreateNodeId(() -> "11111111-1111-1111-1111-111111111111");
        String again = identity.loadOrCreateNodeId(() -> "22222222-2222-2222-2222-222222222222");

        assertThat(first).isEqualTo("11111111-1111-1111-1111-111111111111");
        assertThat(again).isEqualTo(first);
    }

    @TestConfiguration
    static class ClockConfig {
        @Bean
        Clock clock() {
            return Clock.systemUTC();
        }
    }
}
