package dev.berth.alloc.task;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import dev.berth.alloc.spec.RestartPolicy.Violation;
import dev.berth.alloc.spec.RestartPolicy;
import dev.berth.alloc.task.RestartDecision.Killed;
import dev.berth.alloc.task.RestartDecision.NoDecision;
import dev.berth.alloc.task.RestartDecision.NotRestarting;
import dev.berth.alloc.task.RestartDecision.Restarting;
import dev.berth.alloc.task.RestartDecision.Terminated;
import dev.berth.driver.DriverException;
import dev.berth.driver.ExitResult;

import static org.assertj.core.api.Assertions.assertThat;

class RestartTrackerTest {

    private static final Instant T0 = Instant.parse("2026-11-22T00:00:00Z");
    private static final ExitResult FAILED = ExitResult.ofCode(1);
    private static final ExitResult OK = ExitResult.ofCode(0);

    /** A clock the test moves by hand. */
    static final class StepClock extends Clock {
        Instant now = T0;

        void at(Duration sinceT0) {
            now = T0.plus(sinceT0);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    /** Returns scripted values from {@code nextLong(bound)} and records the bounds it was asked for. */
    static final class ScriptedRandom implements RandomGenerator {
        final Deque<Long> values = new ArrayDeque<>();
        final List<Long> bounds = new ArrayList<>();

        ScriptedRandom(long... scripted) {
            for (long v : scripted) {
                values.add(v);
            }
        }

        @Override
        public long nextLong(long bound) {
            bounds.add(bound);
            long v = values.isEmpty() ? 0 : values.poll();
            assertThat(v).isBetween(0L, bound - 1);
            return v;
        }

        @Override
        public long nextLong() {
            throw new UnsupportedOperationException("only nextLong(bound) is expected");
        }
    }

    private static RestartPolicy policy(int attempts, String interval, String delay, String mode) {
        return new RestartPolicy(attempts, Duration.parse(interval), Duration.parse(delay), mode);
    }

    private static final RestartPolicy SERVICE = policy(2, "PT1M", "PT10S", "fail");
    private static final RestartPolicy DELAY_MODE = policy(2, "PT1M", "PT10S", "delay");

    /** One step: move the clock to {@code at}, feed the input, expect exactly {@code expected}. */
    record Step(Duration at, Consumer<RestartTracker> input, RestartDecision expected, int countAfter) {
    }

    private static Step step(int atSeconds, Consumer<RestartTracker> input, RestartDecision expected, int countAfter) {
        return new Step(Duration.ofSeconds(atSeconds), input, expected, countAfter);
    }

    private static Restarting withinPolicy(Duration delay) {
        return new Restarting(delay, RestartTracker.REASON_WITHIN_POLICY);
    }

    static Stream<Arguments> scenarios() {
        Consumer<RestartTracker> fail = t -> t.setExitResult(FAILED);
        Consumer<RestartTracker> succeed = t -> t.setExitResult(OK);
        // Scripted jitter 4e9 ns of a 10 s delay: 10 s + 4e9 * 0.25 ns = 11 s.
        long r = 4_000_000_000L;
        return Stream.of(
                Arguments.of("delay plus jitter within policy", SERVICE, "service", new long[] {r, 0, 3},
                        List.of(step(1, fail, withinPolicy(Duration.ofSeconds(11)), 1),
                                step(2, fail, withinPolicy(Duration.ofSeconds(10)), 2))),
                Arguments.of("count > attempts in fail mode", SERVICE, "service", new long[] {0, 0},
                        List.of(step(1, fail, withinPolicy(Duration.ofSeconds(10)), 1),
                                step(2, fail, withinPolicy(Duration.ofSeconds(10)), 2),
                                step(3, fail, new NotRestarting("Exceeded allowed attempts 2 in interval 1m0s and mode is \"fail\""), 3))),
                Arguments.of("delay mode waits out the interval without jitter", DELAY_MODE, "service", new long[] {0, 0},
                        List.of(step(1, fail, withinPolicy(Duration.ofSeconds(10)), 1),
                                step(20, fail, withinPolicy(Duration.ofSeconds(10)), 2),
                                step(40, fail, new Restarting(Duration.ofSeconds(20), RestartTracker.REASON_DELAY), 3))),
                Arguments.of("interval rolls over before the count", SERVICE, "service", new long[] {0, 0, 0},
                        List.of(step(10, fail, withinPolicy(Duration.ofSeconds(10)), 1),
                                step(20, fail, withinPolicy(Duration.ofSeconds(10)), 2),
                                step(61, fail, withinPolicy(Duration.ofSeconds(10)), 1))),
                Arguments.of("exactly at the interval end is still the same interval", SERVICE, "service", new long[] {0, 0},
                        List.of(step(10, fail, withinPolicy(Duration.ofSeconds(10)), 1),
                                step(20, fail, withinPolicy(Duration.ofSeconds(10)), 2),
                                step(60, fail, new NotRestarting("Exceeded allowed attempts 2 in interval 1m0s and mode is \"fail\""), 3))),
                Arguments.of("attempts 0: a failure is not restarted", policy(0, "PT1M", "PT10S", "fail"), "service", new long[] {},
                        List.of(step(1, fail, new NotRestarting(RestartTracker.REASON_NO_RESTARTS_ALLOWED), 0),
                                step(2, succeed, new NotRestarting(RestartTracker.REASON_NO_RESTARTS_ALLOWED), 0))),
                Arguments.of("attempts 0: a successful batch exit terminates", policy(0, "PT1M", "PT10S", "fail"), "batch", new long[] {},
                        List.of(step(1, succeed, new Terminated(RestartTracker.REASON_NO_RESTARTS_ALLOWED), 0))),
                Arguments.of("unrecoverable start error", SERVICE, "service", new long[] {},
                        List.of(step(1, t -> t.setStartError(new DriverException("no", false)),
                                new NotRestarting(RestartTracker.REASON_UNRECOVERABLE), 1),
                                step(2, t -> t.setStartError(new IllegalStateException("plain exceptions are unrecoverable")),
                                        new NotRestarting(RestartTracker.REASON_UNRECOVERABLE), 2))),
                Arguments.of("recoverable start error restarts, also when wrapped", SERVICE, "service", new long[] {0, 0},
                        List.of(step(1, t -> t.setStartError(new DriverException("later", true)), withinPolicy(Duration.ofSeconds(10)), 1),
                                step(2, t -> t.setStartError(new RuntimeException("prestart hook failed",
                                        new DriverException("later", true))), withinPolicy(Duration.ofSeconds(10)), 2))),
                Arguments.of("successful batch exit terminates; a failed one restarts", SERVICE, "batch", new long[] {0},
                        List.of(step(1, succeed, new Terminated(RestartTracker.REASON_TERMINATED), 1),
                                step(2, fail, withinPolicy(Duration.ofSeconds(10)), 2))),
                Arguments.of("successful service exit restarts", SERVICE, "service", new long[] {0},
                        List.of(step(1, succeed, withinPolicy(Duration.ofSeconds(10)), 1))),
                Arguments.of("user restarts are not counted", SERVICE, "service", new long[] {0, 0},
                        List.of(step(1, t -> t.setRestartTriggered(false), new Restarting(Duration.ZERO, ""), 0),
                                step(2, t -> t.setRestartTriggered(false).setExitResult(FAILED), new Restarting(Duration.ZERO, ""), 0),
                                step(3, t -> t.setRestartTriggered(true), withinPolicy(Duration.ofSeconds(10)), 1))),
                Arguments.of("killed wins over everything", SERVICE, "service", new long[] {},
                        List.of(step(1, t -> t.setExitResult(FAILED).setRestartTriggered(false).setKilled(), new Killed(), 0))),
                Arguments.of("no failure reported: unknown state, counted", SERVICE, "service", new long[] {},
                        List.of(step(1, t -> { }, new NoDecision(), 1))),
                Arguments.of("decide() clears its inputs", SERVICE, "service", new long[] {0},
                        List.of(step(1, fail, withinPolicy(Duration.ofSeconds(10)), 1),
                                step(2, t -> { }, new NoDecision(), 2))),
                Arguments.of("zero delay is 1 ns", policy(2, "PT1M", "PT0S", "fail"), "service", new long[] {0},
                        List.of(step(1, fail, withinPolicy(Duration.ofNanos(1)), 1))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void decidesExactly(String name, RestartPolicy policy, String jobType, long[] randoms, List<Step> steps) {
        StepClock clock = new StepClock();
        RestartTracker tracker = new RestartTracker(policy, jobType, null, false, clock, new ScriptedRandom(randoms));
        for (Step step : steps) {
            clock.at(step.at());
            step.input().accept(tracker);
            assertThat(tracker.decide()).as("at %s", step.at()).isEqualTo(step.expected());
            assertThat(tracker.counters().count()).as("count at %s", step.at()).isEqualTo(step.countAfter());
        }
    }

    @Test
    void jitterIsDrawnBelowTheDelayAndOnlyForRestartsWithinPolicy() {
        StepClock clock = new StepClock();
        ScriptedRandom random = new ScriptedRandom(9_999_999_999L);
        RestartTracker tracker = new RestartTracker(DELAY_MODE, "service", null, false, clock, random);
        // Largest jitter: 10 s + floor(9_999_999_999 * 0.25) ns.
        assertThat(tracker.setExitResult(FAILED).decide()).isEqualTo(withinPolicy(Duration.ofNanos(10_000_000_000L + 2_499_999_999L)));
        tracker.setExitResult(FAILED).decide();
        tracker.setExitResult(FAILED).decide(); // delay mode, past the attempts
        assertThat(random.bounds).containsExactly(10_000_000_000L, 10_000_000_000L);
    }

    @Test
    void policyUpdateKeepsTheCount() {
        StepClock clock = new StepClock();
        RestartTracker tracker = new RestartTracker(SERVICE, "service", null, false, clock, new ScriptedRandom());
        tracker.setExitResult(FAILED).decide();
        tracker.setPolicy(policy(1, "PT1M", "PT10S", "fail"));
        assertThat(tracker.setExitResult(FAILED).decide())
                .isEqualTo(new NotRestarting("Exceeded allowed attempts 1 in interval 1m0s and mode is \"fail\""));
    }

    @ParameterizedTest
    @CsvSource(nullValues = "null", value = {
            "service, null, false, true",
            "system, null, false, true",
            "batch, null, false, false",
            "sysbatch, null, false, false",
            "service, prestart, false, false",
            "batch, prestart, true, true",
            "service, poststart, true, true",
            "service, poststart, false, false",
            "service, poststop, true, false",
            "batch, poststop, false, false"})
    void onSuccessByJobTypeAndLifecycle(String jobType, String hook, boolean sidecar, boolean expected) {
        assertThat(RestartTracker.onSuccess(jobType, hook, sidecar)).isEqualTo(expected);
    }

    @Test
    void defaultsByJobType() {
        assertThat(RestartPolicy.defaultFor("service")).isEqualTo(policy(2, "PT30M", "PT15S", "fail"));
        assertThat(RestartPolicy.defaultFor("system")).isEqualTo(policy(2, "PT30M", "PT15S", "fail"));
        assertThat(RestartPolicy.defaultFor("batch")).isEqualTo(policy(3, "PT24H", "PT15S", "fail"));
        assertThat(RestartPolicy.defaultFor("service").validate()).isEmpty();
        assertThat(RestartPolicy.defaultFor("batch").validate()).isEmpty();
    }

    @Test
    void validationNamesTheField() {
        assertThat(policy(1, "PT1M", "PT10S", "sometimes").validate())
                .containsExactly(new Violation("mode", "Unsupported restart mode: \"sometimes\""));
        assertThat(policy(0, "PT1M", "PT10S", "delay").validate())
                .containsExactly(new Violation("attempts", "Restart policy \"delay\" with 0 attempts is ambiguous"));
        assertThat(policy(0, "PT1M", "PT10S", "fail").validate()).isEmpty();
        assertThat(policy(1, "PT4S", "PT1S", "fail").validate())
                .containsExactly(new Violation("interval", "Interval can not be less than 5s (got 4s)"));
        assertThat(policy(3, "PT1M", "PT21S", "fail").validate())
                .containsExactly(new Violation("delay", "Nomad can't restart the TaskGroup 3 times in an interval of 1m0s with a delay of 21s"));
        assertThat(policy(3, "PT1M", "PT20S", "fail").validate()).isEmpty();
    }
}
