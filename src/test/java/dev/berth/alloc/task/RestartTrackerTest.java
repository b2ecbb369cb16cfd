package dev.berth.alloc.task;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
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

import dev.berth.alloc.spec.ExitRules;
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
import dev.berth.support.TestClock;

class RestartTrackerTest {

    private static final Instant T0 = Instant.parse("2026-11-22T00:00:00Z");
    private static final ExitResult FAILED = ExitResult.ofCode(1);
    private static final ExitResult OK = ExitResult.ofCode(0);


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

    private static final ExitRules RULES = new ExitRules(List.of(2, 0), List.of(75), List.of("SIGTERM"), List.of("usr1"));

    private static RestartPolicy withRules(RestartPolicy p) {
        return new RestartPolicy(p.attempts(), p.interval(), p.delay(), p.mode(), RULES);
    }

    private static RestartRule.ExitRule rule(String key, String value) {
        return new RestartRule.ExitRule(key, value);
    }

    /** Exit rules: each decision names its rule; restarts by rule keep the policy's exact jittered delay and are not counted. */
    static Stream<Arguments> exitRuleScenarios() {
        Consumer<RestartTracker> fail = t -> t.setExitResult(FAILED);
        Consumer<RestartTracker> code75 = t -> t.setExitResult(ExitResult.ofCode(75));
        Consumer<RestartTracker> code2 = t -> t.setExitResult(ExitResult.ofCode(2));
        Consumer<RestartTracker> sigterm = t -> t.setExitResult(new ExitResult(143, 15, false, null));
        Consumer<RestartTracker> sigusr1 = t -> t.setExitResult(new ExitResult(138, 10, false, null));
        long r = 4_000_000_000L;
        Restarting by75 = new Restarting(Duration.ofSeconds(11), "Exit code 75 is listed in RestartExitCodes: restart, not counted",
                rule("RestartExitCodes", "75"));
        return Stream.of(
                Arguments.of("RestartExitCodes restart with the jittered delay and are not counted", SERVICE, "service",
                        new long[] {r, r, r, 0, 0},
                        List.of(step(1, code75, by75, 0), step(2, code75, by75, 0), step(3, code75, by75, 0),
                                step(4, fail, withinPolicy(Duration.ofSeconds(10)), 1),
                                step(5, fail, withinPolicy(Duration.ofSeconds(10)), 2),
                                step(6, fail, new NotRestarting("Exceeded allowed attempts 2 in interval 1m0s and mode is \"fail\""), 3))),
                Arguments.of("RestartExitCodes restart past the attempts and with attempts 0", policy(0, "PT1M", "PT10S", "fail"), "service",
                        new long[] {r},
                        List.of(step(1, fail, new NotRestarting(RestartTracker.REASON_NO_RESTARTS_ALLOWED), 0),
                                step(2, code75, by75, 0))),
                Arguments.of("NoRestartExitCodes end a failed task, failed", SERVICE, "service", new long[] {},
                        List.of(step(1, code2, new NotRestarting("Exit code 2 is listed in NoRestartExitCodes: no restart",
                                rule("NoRestartExitCodes", "2")), 0))),
                Arguments.of("NoRestartExitCodes end a successful service task, not failed", SERVICE, "service", new long[] {},
                        List.of(step(1, t -> t.setExitResult(OK), new Terminated("Exit code 0 is listed in NoRestartExitCodes: no restart",
                                rule("NoRestartExitCodes", "0")), 0))),
                Arguments.of("signal rules come before the exit code 128 + n", SERVICE, "service", new long[] {r},
                        List.of(step(1, sigterm, new NotRestarting("Signal SIGTERM is listed in NoRestartSignals: no restart",
                                        rule("NoRestartSignals", "SIGTERM")), 0),
                                step(2, sigusr1, new Restarting(Duration.ofSeconds(11),
                                        "Signal SIGUSR1 is listed in RestartSignals: restart, not counted", rule("RestartSignals", "SIGUSR1")), 0))),
                Arguments.of("a listed code the driver could not read follows the policy", SERVICE, "service", new long[] {0},
                        List.of(step(1, t -> t.setExitResult(new ExitResult(2, 0, false, "exit status of the task was lost")),
                                withinPolicy(Duration.ofSeconds(10)), 1))),
                Arguments.of("kills, requested restarts and start errors ignore the rules", SERVICE, "service", new long[] {0},
                        List.of(step(1, t -> t.setExitResult(ExitResult.ofCode(75)).setKilled(), new Killed(), 0),
                                step(2, t -> t.setRestartTriggered(false).setExitResult(ExitResult.ofCode(2)), new Restarting(Duration.ZERO, ""), 0),
                                step(3, t -> t.setStartError(new DriverException("later", true)).setExitResult(ExitResult.ofCode(2)),
                                        withinPolicy(Duration.ofSeconds(10)), 1))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exitRuleScenarios")
    void exitRulesDecideAndNameTheirRule(String name, RestartPolicy policy, String jobType, long[] randoms, List<Step> steps) {
        decidesExactly(name, withRules(policy), jobType, randoms, steps);
    }

    @Test
    void nomadsDecisionsNameThePolicyAsTheirRule() {
        RestartTracker tracker = new RestartTracker(withRules(SERVICE), "service", null, false, new TestClock(T0), new ScriptedRandom(0));
        assertThat(tracker.setExitResult(FAILED).decide().rule()).isEqualTo(RestartRule.POLICY);
        assertThat(tracker.setKilled().decide().rule()).isEqualTo(RestartRule.POLICY);
    }

    @Test
    void exitRuleValidationNamesTheKey() {
        RestartPolicy bad = new RestartPolicy(2, Duration.ofMinutes(1), Duration.ofSeconds(10), "fail",
                new ExitRules(Arrays.asList(256, null, 3), List.of(3, -1), List.of("SIGNOPE"), List.of("TERM", "sigterm")));
        assertThat(bad.validate()).containsExactly(
                new Violation("NoRestartExitCodes", "NoRestartExitCodes lists 256; an exit code is 0 to 255"),
                new Violation("NoRestartExitCodes", "NoRestartExitCodes lists null; an exit code is 0 to 255"),
                new Violation("RestartExitCodes", "RestartExitCodes lists exit code 3 twice or in both exit-code lists"),
                new Violation("RestartExitCodes", "RestartExitCodes lists -1; an exit code is 0 to 255"),
                new Violation("NoRestartSignals", "NoRestartSignals lists unknown signal \"SIGNOPE\""),
                new Violation("RestartSignals", "RestartSignals lists signal SIGTERM twice or in both signal lists"));
        assertThat(withRules(SERVICE).validate()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void decidesExactly(String name, RestartPolicy policy, String jobType, long[] randoms, List<Step> steps) {
        TestClock clock = new TestClock(T0);
        RestartTracker tracker = new RestartTracker(policy, jobType, null, false, clock, new ScriptedRandom(randoms));
        for (Step step : steps) {
            clock.set(T0.plus(step.at()));
            step.input().accept(tracker);
            assertThat(tracker.decide()).as("at %s", step.at()).isEqualTo(step.expected());
            assertThat(tracker.counters().count()).as("count at %s", step.at()).isEqualTo(step.countAfter());
        }
    }

    @Test
    void jitterIsDrawnBelowTheDelayAndOnlyForRestartsWithinPolicy() {
        TestClock clock = new TestClock(T0);
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
        TestClock clock = new TestClock(T0);
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
