package dev.berth.state;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import dev.berth.alloc.runner.RunnerHarness;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskState;
import dev.berth.config.Sleeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A store write that loses a conflict inside H2 to another transaction runs again once that transaction ended, instead
 * of failing the caller (a task runner died of this once, in the crash-fault test under a CPU hog). The other
 * transaction is a raw connection of the test's; it ends inside the injected sleeper, so each case is exact.
 */
class StateWriteConflictTest {

    private static final Instant T0 = Instant.parse("2026-11-26T00:00:00Z");

    @TempDir
    Path dir;

    private DriverManagerDataSource dataSource;
    private Connection other;
    private final List<Duration> pauses = new CopyOnWriteArrayList<>();
    private Runnable onPause = () -> { };

    @BeforeEach
    void open() throws SQLException {
        // H2's lock timeout short, so that a held row fails the first run soon (the agent runs with H2's 2 s)
        dataSource = new DriverManagerDataSource("jdbc:h2:file:" + dir.resolve("state/berth")
                + H2StoreCompactionTest.OPTIONS + ";LOCK_TIMEOUT=100", "sa", "");
        Flyway.configure().dataSource(dataSource).load().migrate();
        other = dataSource.getConnection();
        other.setAutoCommit(false);
    }

    @AfterEach
    void close() throws SQLException {
        other.rollback();
        other.close();
    }

    private JdbcAllocStateStore store() {
        Sleeper sleeper = (duration, cancel) -> {
            pauses.add(duration);
            onPause.run();
            return true;
        };
        StateTransactions tx = new StateTransactions(new DataSourceTransactionManager(dataSource), sleeper);
        JdbcAllocStateStore store = new JdbcAllocStateStore(JdbcClient.create(dataSource), tx, Clock.systemUTC());
        AllocationSpec spec = RunnerHarness.alloc("a", "service", null,
                RunnerHarness.task("t", Map.of("run_for", "1h")));
        assertThat(store.putAlloc(new AllocRecord(spec, "pending", ""))).isTrue();
        return store;
    }

    private static TaskState state(String event) {
        return TaskState.initial().withEvent(TaskEvent.received(T0)).withEvent(TaskEvent.setupFailure(T0, event));
    }

    private void otherRuns(String sql) {
        try (Statement s = other.createStatement()) {
            s.executeUpdate(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void otherEnds(boolean commit) {
        try {
            if (commit) {
                other.commit();
            } else {
                other.rollback();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aRowAnotherTransactionInsertedAndHasNotCommittedIsWrittenOnceThatOneCommits() {
        JdbcAllocStateStore store = store();
        otherRuns("INSERT INTO alloc_task (id, alloc_id, task_name, state_json) VALUES ('a/t', 'a', 't', '{}')");
        onPause = () -> otherEnds(true);

        assertThat(store.putTaskState("a", "t", state("ours"))).isTrue();

        assertThat(pauses).containsExactly(StateTransactions.FIRST_PAUSE);
        assertThat(store.taskStates("a")).containsExactly(Map.entry("t", state("ours")));
    }

    @Test
    void aRowAnotherTransactionHoldsPastTheLockTimeoutIsWrittenOnceThatOneEnds() {
        JdbcAllocStateStore store = store();
        store.putTaskState("a", "t", state("before"));
        otherRuns("UPDATE alloc_task SET local_json = '{}' WHERE id = 'a/t'");
        onPause = () -> otherEnds(false);

        assertThat(store.putTaskState("a", "t", state("ours"))).isTrue();

        assertThat(pauses).containsExactly(StateTransactions.FIRST_PAUSE);
        assertThat(store.taskStates("a")).containsExactly(Map.entry("t", state("ours")));
    }

    @Test
    void aConflictThatOutlastsEveryRunIsTheCallersAndWritesNothing() {
        JdbcAllocStateStore store = store();
        otherRuns("INSERT INTO alloc_task (id, alloc_id, task_name, state_json) VALUES ('a/t', 'a', 't', '{}')");

        assertThatThrownBy(() -> store.putTaskState("a", "t", state("ours"))).isInstanceOf(TransientDataAccessException.class);

        assertThat(pauses).hasSize(StateTransactions.ATTEMPTS - 1).startsWith(StateTransactions.FIRST_PAUSE,
                StateTransactions.FIRST_PAUSE.multipliedBy(2), StateTransactions.FIRST_PAUSE.multipliedBy(4));
        otherEnds(false);
        assertThat(store.taskStates("a")).isEmpty();
    }

    @Test
    void insideTheCallersTransactionTheConflictIsTheCallersAtOnce() {
        JdbcAllocStateStore store = store();
        otherRuns("INSERT INTO alloc_task (id, alloc_id, task_name, state_json) VALUES ('a/t', 'a', 't', '{}')");
        TransactionTemplate outer = new TransactionTemplate(new DataSourceTransactionManager(dataSource));

        assertThatThrownBy(() -> outer.executeWithoutResult(s -> store.putTaskState("a", "t", state("ours"))))
                .isInstanceOf(TransientDataAccessException.class);

        assertThat(pauses).isEmpty();
    }
}
