package dev.berth.variables;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import dev.berth.events.Change;
import dev.berth.events.ChangeFeed;
import dev.berth.events.Topic;
import dev.berth.variables.VariableOutcome.Conflict;
import dev.berth.variables.VariableOutcome.Written;

import static org.assertj.core.api.Assertions.assertThat;
import dev.berth.support.TestClock;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Lock leases against a clock the test moves: renewable for twice the TTL, then lapsed (renewal refused, the lock still
 * held) for the lock delay, then removed; a second holder is refused all along. The sweeper is not started: lapsing is
 * read from the clock at each operation, and {@code expireDue} is what the sweeper calls.
 */
class VariableLocksTest {

    final VariableFixture fixture = new VariableFixture();
    final TestClock clock = fixture.clock;
    final MemoryVariableStore store = fixture.store;
    final ChangeFeed feed = fixture.feed;
    final VariableLocks locks = fixture.locks;
    final VariableWriter writer = fixture.writer;
    final VariableService variables = fixture.variables;

    static final LockRequest TTL_10S_DELAY_5S = new LockRequest(null, Duration.ofSeconds(10), Duration.ofSeconds(5));

    String acquire(LockRequest request) {
        VariableOutcome outcome = locks.acquire("default", "leader", Map.of("who", "a"), request);
        assertThat(outcome).isInstanceOf(Written.class);
        return ((Written) outcome).variable().meta().lockId();
    }

    @Test
    void aSecondHolderIsRefusedUntilTheLockIsReleased() {
        String first = acquire(TTL_10S_DELAY_5S);

        VariableOutcome second = locks.acquire("default", "leader", Map.of(), TTL_10S_DELAY_5S);
        assertThat(second).isInstanceOfSatisfying(Conflict.class,
                c -> assertThat(c.current()).as("only namespace and path").isEqualTo(Variable.zero("default", "leader")));

        assertThat(locks.release("default", "leader", "not-the-holder", false)).isInstanceOf(Conflict.class);
        assertThat(locks.release("default", "leader", first, false)).isInstanceOfSatisfying(Written.class,
                w -> assertThat(w.variable().meta().lock()).isNull());
        assertThat(acquire(TTL_10S_DELAY_5S)).isNotEqualTo(first);
    }

    @Test
    void anUnrenewedLockLapsesAfterTwiceItsTtlAndIsRemovedAfterItsDelay() {
        String holder = acquire(TTL_10S_DELAY_5S);
        clock.advance(Duration.ofSeconds(15));
        assertThat(locks.renew("default", "leader", holder).lock().id()).isEqualTo(holder);

        clock.advance(Duration.ofSeconds(19)); // 19 s after the renewal: still within 2 × 10 s
        locks.renew("default", "leader", holder);
        clock.advance(Duration.ofSeconds(20)); // 20 s without renewal: lapsed
        assertThatExceptionOfType(VariableException.class).isThrownBy(() -> locks.renew("default", "leader", holder))
                .withMessage("attempting to modify locked variable");
        assertThat(locks.acquire("default", "leader", Map.of(), TTL_10S_DELAY_5S)).as("within the lock delay")
                .isInstanceOf(Conflict.class);
        assertThat(variables.read("default", "leader").value().orElseThrow().meta().lockId()).isEqualTo(holder);

        clock.advance(Duration.ofSeconds(5));
        List<Change> changes = new ArrayList<>();
        long before = feed.currentIndex();
        locks.expireDue();
        changes.addAll(feed.changesAfter(before, c -> c.topic() == Topic.Variable, 10));
        assertThat(variables.read("default", "leader").value().orElseThrow().meta().lock()).isNull();
        assertThat(changes).singleElement().satisfies(c -> assertThat(((VariableEvent) c.payload()).metadata().lock()).isNull());
        assertThat(acquire(TTL_10S_DELAY_5S)).isNotEqualTo(holder);
    }

    @Test
    void aLapsedLockPastItsDelayIsGoneForTheNextAcquireEvenBeforeTheSweeperRuns() {
        acquire(TTL_10S_DELAY_5S);
        clock.advance(Duration.ofSeconds(25));
        assertThat(locks.acquire("default", "leader", Map.of(), TTL_10S_DELAY_5S)).isInstanceOf(Written.class);
    }

    @Test
    void aLockedVariableIsWrittenOnlyByItsHolderAndDeletedByNoOne() {
        String holder = acquire(LockRequest.NONE);
        assertThat(variables.put("default", "leader", Map.of("x", "1"), LockRequest.NONE, OptionalLong.empty()))
                .isInstanceOf(Conflict.class);
        assertThat(variables.put("default", "leader", Map.of("x", "1"), new LockRequest(holder, null, null), OptionalLong.empty()))
                .isInstanceOfSatisfying(Written.class, w -> {
                    assertThat(w.variable().items()).isEqualTo(Map.of("x", "1"));
                    assertThat(w.variable().meta().lock().ttl()).as("the held lock is kept").isEqualTo(Duration.ofSeconds(15));
                });
        assertThat(variables.delete("default", "leader", OptionalLong.empty())).isInstanceOf(Conflict.class);
        locks.release("default", "leader", holder, false);
        assertThat(variables.delete("default", "leader", OptionalLong.empty())).isInstanceOf(VariableOutcome.Deleted.class);
    }

    @Test
    void lockOperationsOnMissingOrUnlockedVariablesAreNomadsErrors() {
        assertThatExceptionOfType(VariableException.class).isThrownBy(() -> locks.renew("default", "nothing", "id"))
                .withMessage("variable doesn't exist");
        variables.put("default", "plain", Map.of("a", "b"), LockRequest.NONE, OptionalLong.empty());
        assertThatExceptionOfType(VariableException.class).isThrownBy(() -> locks.release("default", "plain", "id", false))
                .withMessage("variable doesn't hold a lock");
        assertThatExceptionOfType(VariableException.class).isThrownBy(() -> locks.release("default", "plain", null, false))
                .withMessage("missing lock information");
        assertThatExceptionOfType(VariableException.class).isThrownBy(() -> locks.release("default", "plain", "id", true))
                .withMessage("lock release operation doesn't take variable items");
        assertThatExceptionOfType(VariableException.class)
                .isThrownBy(() -> locks.acquire("default", "leader", Map.of(), new LockRequest(null, Duration.ofSeconds(5), null)))
                .withMessageContaining("TTL must be between 10 seconds and 24 hours");
    }

    @Test
    void aRestartGivesEveryStoredLockAFreshLease() {
        String holder = acquire(TTL_10S_DELAY_5S);
        VariableLocks restarted = new VariableLocks(store, writer, clock, fixture.namespaces);
        clock.advance(Duration.ofMinutes(5));
        restarted.start();
        try {
            assertThat(restarted.renew("default", "leader", holder).lockId()).isEqualTo(holder);
        } finally {
            restarted.stop();
        }
    }
}
