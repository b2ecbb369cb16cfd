package dev.berth.variables;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import dev.berth.events.Change;
import dev.berth.events.ChangeFeed;

import static org.assertj.core.api.Assertions.assertThat;
import dev.berth.support.TestClock;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** What a task reads through {@link WorkloadVariables}: its own paths only, without locks, and the changes to wait on. */
class WorkloadVariableReaderTest {

    final VariableFixture fixture = new VariableFixture();
    final MemoryVariableStore store = fixture.store;
    final ChangeFeed feed = fixture.feed;
    final TestClock clock = fixture.clock;
    final VariableService variables = fixture.variables;
    final VariableLocks locks = fixture.locks;
    final WorkloadVariables reader = new WorkloadVariableReader(variables);
    final WorkloadIdentity server = new WorkloadIdentity("default", "web", "app", "server");

    void put(String path) {
        variables.put("default", path, Map.of("k", path), LockRequest.NONE, OptionalLong.empty());
    }

    @Test
    void aTaskReadsItsOwnPathsAndIsDeniedTheRest() {
        put("nomad/jobs/web/app/server");
        put("nomad/jobs/api");
        assertThat(reader.read(server, "nomad/jobs/web/app/server").value().orElseThrow().items()).containsEntry("k", "nomad/jobs/web/app/server");
        assertThat(reader.read(server, "nomad/jobs/web").value()).as("allowed, absent").isEmpty();
        assertThatExceptionOfType(VariableException.class).isThrownBy(() -> reader.read(server, "nomad/jobs/api"))
                .withMessage("Permission denied")
                .satisfies(e -> assertThat(e.kind()).isEqualTo(VariableException.Kind.PERMISSION_DENIED));
        assertThatExceptionOfType(VariableException.class).isThrownBy(() -> reader.read(server, "nomad/jobs/absent"));
    }

    @Test
    void aListingShowsOnlyReadablePathsAndNoLocks() {
        for (String p : new String[] {"nomad/jobs", "nomad/jobs/web", "nomad/jobs/web/app", "nomad/jobs/web/app/server",
                "nomad/jobs/web/app/server/deeper", "nomad/jobs/web/db", "nomad/jobs/webapp", "other"}) {
            put(p);
        }
        locks.acquire("default", "nomad/jobs/web", Map.of("k", "v"), new LockRequest(null, Duration.ofSeconds(10), null));
        assertThat(reader.list(server, "nomad/jobs").value()).extracting(VariableMeta::path)
                .containsExactly("nomad/jobs", "nomad/jobs/web", "nomad/jobs/web/app", "nomad/jobs/web/app/server");
        assertThat(reader.list(server, "").value()).allSatisfy(m -> assertThat(m.lock()).isNull());
        assertThat(reader.read(server, "nomad/jobs/web").value().orElseThrow().meta().lock()).isNull();
    }

    @Test
    void onlyChangesToReadablePathsWakeATask() {
        long before = feed.currentIndex();
        put("nomad/jobs/api");
        put("nomad/jobs/web/app");
        assertThat(feed.changesAfter(before, reader.changes(server), 10)).extracting(Change::key).containsExactly("nomad/jobs/web/app");
    }
}
