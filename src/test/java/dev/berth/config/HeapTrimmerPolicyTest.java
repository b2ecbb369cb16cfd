package dev.berth.config;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HeapTrimmerPolicyTest {

    private static final long MB = 1L << 20;

    @Test
    void theStartUpGarbageIsShedAtTheFirstQuietLookAndAQuietAgentIsNotCollectedAgain() {
        HeapTrimmer.Policy policy = new HeapTrimmer.Policy(5, 80 * MB);

        assertThat(policy.look(7, 80 * MB)).as("collections ran during the period: not quiet").isFalse();
        assertThat(policy.look(7, 80 * MB)).as("quiet after start").isTrue();
        policy.trimmed(8, 60 * MB);

        for (int i = 0; i < 10; i++) {
            assertThat(policy.look(8, 60 * MB)).as("still quiet, nothing collected since the trim").isFalse();
        }
    }

    @Test
    void anAgentThatOnlyRunsItsTasksIsNotTrimmedAgainAndAgain() {
        HeapTrimmer.Policy policy = new HeapTrimmer.Policy(0, 60 * MB);
        policy.trimmed(100, 120 * MB);
        long collections = 100;
        for (int period = 0; period < 40; period++) {
            // a young collection every other period or so (1,000 tasks sampled every second), up to three in one
            collections += period % 3 == 0 ? 0 : period % 7 == 0 ? HeapTrimmer.BUSY_COLLECTIONS - 1 : 1;
            assertThat(policy.look(collections, 121 * MB)).as("period %d", period).isFalse();
        }
        collections += HeapTrimmer.BUSY_COLLECTIONS; // then a busy period (allocations destroyed)
        assertThat(policy.look(collections, 121 * MB)).isFalse();
        assertThat(policy.look(collections, 121 * MB)).as("quiet after a busy period").isTrue();
    }

    @Test
    void aCacheWithMuchToGiveBackMakesTheNextQuietLookTrimWithoutABusyPeriod() {
        HeapTrimmer.Policy policy = new HeapTrimmer.Policy(0, 60 * MB);
        policy.trimmed(10, 120 * MB);
        assertThat(policy.look(12, 121 * MB, false)).as("two collections: not busy").isFalse();
        assertThat(policy.look(12, 121 * MB, false)).as("quiet, but nothing busy since the trim").isFalse();
        assertThat(policy.look(13, 121 * MB, true)).as("a release is pending, but collections ran").isFalse();
        assertThat(policy.look(13, 121 * MB, false)).as("the next quiet look").isTrue();
        assertThat(policy.quiet()).isTrue();
    }

    @Test
    void aBusyPhaseThatGrowsTheHeapByHalfIsTrimmedWithoutWaitingForQuiet() {
        HeapTrimmer.Policy policy = new HeapTrimmer.Policy(0, 60 * MB);
        policy.trimmed(1, 60 * MB);

        assertThat(policy.look(20, 100 * MB)).as("busy, grew by 40 MB: under half + 16 MiB").isFalse();
        assertThat(policy.look(40, 107 * MB)).as("busy, grew past 60 + 30 + 16 MiB").isTrue();
        assertThat(policy.quiet()).as("a busy trim keeps the caches").isFalse();
        policy.trimmed(41, 180 * MB);
        assertThat(policy.look(60, 200 * MB)).as("the new baseline is the trimmed size").isFalse();
    }

    @Test
    void allocationsDestroyedThenAQuietPeriodGiveTheirHeapBack() {
        HeapTrimmer.Policy policy = new HeapTrimmer.Policy(0, 60 * MB);
        policy.trimmed(1, 60 * MB);
        assertThat(policy.look(30, 200 * MB)).isTrue(); // the busy phase
        policy.trimmed(31, 180 * MB);
        assertThat(policy.look(50, 180 * MB)).as("destroying: collections, no growth").isFalse();

        assertThat(policy.look(50, 180 * MB)).as("quiet after the destroys").isTrue();
        assertThat(policy.quiet()).as("a quiet trim releases the caches too").isTrue();
        policy.trimmed(51, 70 * MB);
        assertThat(policy.look(51, 70 * MB)).isFalse();
    }

    @Test
    void afterABusyPeriodTheLooksComeEveryTenSecondsUntilTheQuietTrim() {
        HeapTrimmer.Policy policy = new HeapTrimmer.Policy(0, 60 * MB);
        policy.trimmed(1, 60 * MB);
        assertThat(policy.nextPeriod()).as("nothing busy since the trim").isEqualTo(HeapTrimmer.PERIOD);
        assertThat(policy.look(3, 60 * MB)).isFalse();
        assertThat(policy.nextPeriod()).as("a few collections are not a busy period").isEqualTo(HeapTrimmer.PERIOD);

        assertThat(policy.look(3 + HeapTrimmer.BUSY_COLLECTIONS, 80 * MB)).as("allocations destroyed").isFalse();
        assertThat(policy.nextPeriod()).isEqualTo(HeapTrimmer.FIRST_PERIOD).isLessThan(HeapTrimmer.PERIOD);
        assertThat(policy.look(9, 80 * MB)).as("still collecting").isFalse();
        assertThat(policy.nextPeriod()).isEqualTo(HeapTrimmer.FIRST_PERIOD);
        assertThat(policy.look(9, 80 * MB)).as("the first short period without a collection").isTrue();
        assertThat(policy.quiet()).isTrue();
        policy.trimmed(10, 62 * MB);
        assertThat(policy.nextPeriod()).as("trimmed: back to the long period").isEqualTo(HeapTrimmer.PERIOD);
    }

    @Test
    void theStartUpsGarbageIsLookedForEveryFiveSecondsFourTimesThenEveryTenUntilItsTrim() {
        HeapTrimmer.Policy policy = new HeapTrimmer.Policy(20, 40 * MB);
        assertThat(policy.nextPeriod()).as("the first look").isEqualTo(HeapTrimmer.START_PERIOD);
        for (int look = 1; look < HeapTrimmer.START_LOOKS; look++) {
            assertThat(policy.look(20 + look, 40 * MB)).as("a late start-up collection in each period").isFalse();
            assertThat(policy.nextPeriod()).isEqualTo(HeapTrimmer.START_PERIOD);
        }
        assertThat(policy.look(20 + HeapTrimmer.START_LOOKS, 40 * MB)).isFalse();
        assertThat(policy.nextPeriod()).as("the start looks are spent").isEqualTo(HeapTrimmer.FIRST_PERIOD);
        assertThat(policy.look(20 + HeapTrimmer.START_LOOKS, 40 * MB)).as("quiet at last").isTrue();
        policy.trimmed(25, 34 * MB);
        assertThat(policy.nextPeriod()).isEqualTo(HeapTrimmer.PERIOD);
    }

    @Test
    void afterTheFirstTrimTheStartPeriodNeverComesBack() {
        HeapTrimmer.Policy policy = new HeapTrimmer.Policy(20, 40 * MB);
        assertThat(policy.look(30, 40 * MB)).isFalse();
        assertThat(policy.look(30, 40 * MB)).as("the second look, quiet").isTrue();
        policy.trimmed(31, 34 * MB);
        assertThat(policy.look(31 + HeapTrimmer.BUSY_COLLECTIONS, 60 * MB)).as("busy again").isFalse();
        assertThat(policy.nextPeriod()).isEqualTo(HeapTrimmer.FIRST_PERIOD);
    }
}
