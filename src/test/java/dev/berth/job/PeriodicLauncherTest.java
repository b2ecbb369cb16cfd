package dev.berth.job;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.events.ChangeFeed;
import dev.berth.events.IndexStore;
import dev.berth.events.NodeIndex;

import static org.assertj.core.api.Assertions.assertThat;
import dev.berth.support.TestClock;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The periodic launcher with a clock the test moves: launches on each slot, children in Nomad's shape, prohibit_overlap,
 * force, and a restart over the same store that neither launches a slot twice nor loses missed slots.
 */
class PeriodicLauncherTest {

    static final Instant T0 = Instant.parse("2026-11-26T10:00:30Z");

    final MemoryJobStore store = new MemoryJobStore();
    final ChangeFeed feed = new ChangeFeed(new NodeIndex(new IndexStore() {
        long mark;

        @Override
        public long highWater() {
            return mark;
        }

        @Override
        public void reserveThrough(long highWater) {
            mark = Math.max(mark, highWater);
        }
    }));
    final TestClock clock = new TestClock(T0);
    final JsonMapper json = JsonMapper.builder().build();
    final List<String> launched = java.util.Collections.synchronizedList(new ArrayList<>());

    JobRegistry registry = new JobRegistry(store, feed, clock);
    PeriodicLauncher launcher = launcher();

    PeriodicLauncher launcher() {
        return new PeriodicLauncher(registry, store, clock, (child, by) -> {
            JobRegistry.Registered r = registry.register(child, null);
            launched.add(JobService.id(r.job()) + " " + by);
            return new JobService.Result("eval", r.index(), r.index(), "", r.index());
        });
    }

    ObjectNode periodicJob(String periodic) throws Exception {
        ObjectNode job = (ObjectNode) json.readTree("""
                {"ID":"report","Name":"report","Type":"batch","Periodic":%s,
                 "TaskGroups":[{"Name":"g","Count":1,"Tasks":[{"Name":"t","Driver":"raw_exec","Config":{"command":"/bin/true"}}]}]}"""
                .formatted(periodic));
        ObjectNode canonical = JobDefaults.canonicalize(job);
        JobValidation.validate(canonical);
        return registry.register(canonical, null).job();
    }

    @Test
    void withoutAPeriodicJobTheLauncherHasNothingToTickFor() throws Exception {
        assertThat(launcher.hasWork()).isFalse();
        ObjectNode plain = (ObjectNode) json.readTree("""
                {"ID":"web","Name":"web","Type":"service",
                 "TaskGroups":[{"Name":"g","Count":1,"Tasks":[{"Name":"t","Driver":"raw_exec","Config":{"command":"/bin/true"}}]}]}""");
        registry.register(JobDefaults.canonicalize(plain), null);
        assertThat(launcher.hasWork()).as("a job that is not periodic").isFalse();

        periodicJob("{\"Spec\":\"*/5 * * * *\"}");
        assertThat(launcher.hasWork()).isTrue();
        launcher.tick();
        registry.purge("default", "report");
        assertThat(launcher.hasWork()).as("its recorded start is dropped at the next tick").isTrue();
        launcher.tick();
        assertThat(launcher.hasWork()).isFalse();
    }

    /** The loop sleeps with no periodic job; the registration of one wakes it, and it launches on time without a kick. */
    @Test
    void aRegistrationWakesTheSleepingLoop() throws Exception {
        launcher.start();
        try {
            periodicJob("{\"Spec\":\"*/5 * * * *\"}");
            clock.set(Instant.parse("2026-11-26T10:05:00Z"));
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> List.copyOf(launched).equals(List.of("report/periodic-1795687500 periodic-job")));
        } finally {
            launcher.close();
        }
    }

    @Test
    void launchesAChildOnEachSlotInNomadsShape() throws Exception {
        periodicJob("{\"Spec\":\"*/5 * * * *\"}");
        launcher.tick();
        assertThat(launched).isEmpty();

        clock.set(Instant.parse("2026-11-26T10:05:00Z"));
        launcher.tick();
        launcher.tick();
        long slot = Instant.parse("2026-11-26T10:05:00Z").getEpochSecond();
        assertThat(launched).containsExactly("report/periodic-" + slot + " periodic-job");
        ObjectNode child = registry.job("default", "report/periodic-" + slot).orElseThrow();
        assertThat(child.path("ParentID").asString()).isEqualTo("report");
        assertThat(child.path("Name").asString()).isEqualTo("report/periodic-" + slot);
        assertThat(child.path("Periodic").isNull()).isTrue();
        assertThat(child.path("Type").asString()).isEqualTo("batch");
        assertThat(store.launches).containsValue(Instant.parse("2026-11-26T10:05:00Z").toEpochMilli());

        clock.set(Instant.parse("2026-11-26T10:09:59Z"));
        launcher.tick();
        clock.set(Instant.parse("2026-11-26T10:10:00Z"));
        launcher.tick();
        assertThat(launched).hasSize(2).last().asString().startsWith("report/periodic-" + (slot + 300));
    }

    @Test
    void cronsListAndTimeZoneAreHonoured() throws Exception {
        periodicJob("{\"Specs\":[\"0 9 * * *\",\"0 23 * * *\"],\"TimeZone\":\"America/New_York\"}");
        clock.set(Instant.parse("2026-11-26T13:59:59Z"));
        launcher.tick();
        assertThat(launched).isEmpty();
        clock.set(Instant.parse("2026-11-26T14:00:00Z")); // 09:00 in New York
        launcher.tick();
        assertThat(launched).containsExactly("report/periodic-" + Instant.parse("2026-11-26T14:00:00Z").getEpochSecond() + " periodic-job");
        clock.set(Instant.parse("2026-11-27T04:00:00Z")); // 23:00 in New York
        launcher.tick();
        assertThat(launched).hasSize(2);
    }

    @Test
    void prohibitOverlapSkipsWhileAChildIsNotDead() throws Exception {
        periodicJob("{\"Spec\":\"* * * * *\",\"ProhibitOverlap\":true}");
        clock.set(Instant.parse("2026-11-26T10:01:00Z"));
        launcher.tick();
        assertThat(launched).hasSize(1);
        String first = "report/periodic-" + Instant.parse("2026-11-26T10:01:00Z").getEpochSecond();
        registry.setStatus("default", first, "running");

        clock.set(Instant.parse("2026-11-26T10:02:00Z"));
        launcher.tick();
        assertThat(launched).hasSize(1);

        registry.setStatus("default", first, "dead");
        clock.set(Instant.parse("2026-11-26T10:03:00Z"));
        launcher.tick();
        assertThat(launched).hasSize(2);
    }

    @Test
    void disabledStoppedAndParameterizedJobsAreNotLaunched() throws Exception {
        periodicJob("{\"Spec\":\"* * * * *\",\"Enabled\":false}");
        clock.set(Instant.parse("2026-11-26T10:05:00Z"));
        launcher.tick();
        assertThat(launched).isEmpty();
        assertThatThrownBy(() -> launcher.force("default", "report")).hasMessageContaining("can't force run non-tracked job");
        assertThatThrownBy(() -> launcher.force("default", "nope")).hasMessage("job not found");
    }

    @Test
    void forceLaunchesNowWhateverTheSchedule() throws Exception {
        periodicJob("{\"Spec\":\"0 0 1 1 *\"}");
        clock.set(Instant.parse("2026-11-26T10:00:42Z"));
        launcher.force("default", "report");
        assertThat(launched).containsExactly("report/periodic-" + Instant.parse("2026-11-26T10:00:42Z").getEpochSecond() + " periodic-job");
        assertThat(launcher.nextLaunch(registry.job("default", "report").orElseThrow()))
                .contains(Instant.parse("2027-01-01T00:00:00Z"));
    }

    @Test
    void aRestartNeverLaunchesASlotTwiceAndCatchesUpMissedSlotsOnce() throws Exception {
        periodicJob("{\"Spec\":\"*/5 * * * *\"}");
        clock.set(Instant.parse("2026-11-26T10:05:00Z"));
        launcher.tick();
        assertThat(launched).hasSize(1);

        // restart within the same slot: new registry and launcher over the same store
        registry = new JobRegistry(store, feed, clock);
        launcher = launcher();
        clock.set(Instant.parse("2026-11-26T10:05:01Z"));
        launcher.tick();
        assertThat(launched).hasSize(1);

        // down for half an hour (six slots missed): one launch at restart, then the schedule goes on
        registry = new JobRegistry(store, feed, clock);
        launcher = launcher();
        clock.set(Instant.parse("2026-11-26T10:37:12Z"));
        launcher.tick();
        launcher.tick();
        assertThat(launched).hasSize(2).last().asString()
                .startsWith("report/periodic-" + Instant.parse("2026-11-26T10:37:12Z").getEpochSecond());
        clock.set(Instant.parse("2026-11-26T10:40:00Z"));
        launcher.tick();
        assertThat(launched).hasSize(3);
    }

    @Test
    void aPurgedJobForgetsItsLastLaunch() throws Exception {
        periodicJob("{\"Spec\":\"*/5 * * * *\"}");
        clock.set(Instant.parse("2026-11-26T10:05:00Z"));
        launcher.tick();
        registry.purge("default", "report");
        launcher.tick();
        assertThat(store.launches).isEmpty();
    }

    @Test
    void invalidSchedulesAreRefusedAtRegistration() {
        assertThatThrownBy(() -> periodicJob("{\"Spec\":\"not a cron\"}")).hasMessageContaining("Invalid cron spec \"not a cron\"");
        assertThatThrownBy(() -> periodicJob("{\"Spec\":\"* * * * *\",\"TimeZone\":\"Nowhere/Land\"}"))
                .hasMessageContaining("Invalid time zone");
    }


    /** The job store in memory (the H2 adapter is exercised by the agent tests). */
    static final class MemoryJobStore implements JobStore {
        final Map<String, JobDocument> versions = new ConcurrentHashMap<>();
        final Map<String, Document> evals = new ConcurrentHashMap<>();
        final Map<String, Document> placements = new ConcurrentHashMap<>();
        final Map<String, Long> launches = new ConcurrentHashMap<>();
        final Map<String, Document> deployments = new ConcurrentHashMap<>();
        volatile String nodeDrain;

        @Override
        public void putNodeDrain(String json) {
            nodeDrain = json;
        }

        @Override
        public java.util.Optional<String> nodeDrain() {
            return java.util.Optional.ofNullable(nodeDrain);
        }

        @Override
        public void putJobVersion(JobDocument v) {
            versions.put(v.namespace() + "/" + v.jobId() + "@" + v.version(), v);
        }

        @Override
        public List<JobDocument> jobVersions() {
            return List.copyOf(versions.values());
        }

        @Override
        public void purgeJob(String namespace, String jobId) {
            versions.values().removeIf(v -> v.namespace().equals(namespace) && v.jobId().equals(jobId));
            evals.values().removeIf(v -> v.namespace().equals(namespace) && v.jobId().equals(jobId));
        }

        @Override
        public void trimVersions(String namespace, String jobId, int keep) {
            List<JobDocument> mine = versions.values().stream().filter(v -> v.namespace().equals(namespace) && v.jobId().equals(jobId))
                    .sorted((a, b) -> Long.compare(b.version(), a.version())).toList();
            mine.stream().skip(keep).forEach(v -> versions.remove(v.namespace() + "/" + v.jobId() + "@" + v.version()));
        }

        @Override
        public void putEvaluation(Document e) {
            evals.put(e.id(), e);
        }

        @Override
        public List<Document> evaluations() {
            return List.copyOf(evals.values());
        }

        @Override
        public void putPlacement(Document p) {
            placements.put(p.id(), p);
        }

        @Override
        public List<Document> placements() {
            return List.copyOf(placements.values());
        }

        @Override
        public void deletePlacement(String allocId) {
            placements.remove(allocId);
        }

        @Override
        public void putDeployment(Document d) {
            deployments.put(d.id(), d);
        }

        @Override
        public List<Document> deployments() {
            return List.copyOf(deployments.values());
        }

        @Override
        public void deleteDeployments(String namespace, String jobId) {
            deployments.values().removeIf(d -> d.namespace().equals(namespace) && d.jobId().equals(jobId));
        }

        @Override
        public void putPeriodicLaunch(PeriodicLaunch l) {
            launches.put(l.namespace() + "/" + l.jobId(), l.launchMillis());
        }

        @Override
        public List<PeriodicLaunch> periodicLaunches() {
            return launches.entrySet().stream().map(e -> new PeriodicLaunch(e.getKey().split("/", 2)[0], e.getKey().split("/", 2)[1],
                    e.getValue())).toList();
        }

        @Override
        public void deletePeriodicLaunch(String namespace, String jobId) {
            launches.remove(namespace + "/" + jobId);
        }
    }
}
