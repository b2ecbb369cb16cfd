package dev.berth.alloc.spec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.berth.host.Signals;

/**
 * Berth's restart rules by how a task exited: four keys of the restart policy that Nomad does not have. An exit listed
 * under {@code NoRestartExitCodes} or {@code NoRestartSignals} ends the task without a restart (dead, and failed unless
 * the exit was successful); one listed under {@code RestartExitCodes} or {@code RestartSignals} restarts it after the
 * policy's delay whatever its attempts and mode, without counting against them. A process killed by a signal also
 * reports exit code 128 + signal, so the signal lists are checked first. Lists may hold nulls as parsed; {@link #validate()}
 * refuses them, and {@link #match} skips them.
 *
 * @param noRestartExitCodes exit codes (0–255) that end the task
 * @param restartExitCodes   exit codes that always restart it, uncounted
 * @param noRestartSignals   signal names ({@code SIGTERM}, {@code TERM}) that end the task
 * @param restartSignals     signal names that always restart it, uncounted
 */
public record ExitRules(List<Integer> noRestartExitCodes, List<Integer> restartExitCodes, List<String> noRestartSignals,
                        List<String> restartSignals) {

    public static final String NO_RESTART_EXIT_CODES = "NoRestartExitCodes";
    public static final String RESTART_EXIT_CODES = "RestartExitCodes";
    public static final String NO_RESTART_SIGNALS = "NoRestartSignals";
    public static final String RESTART_SIGNALS = "RestartSignals";
    public static final ExitRules NONE = new ExitRules(null, null, null, null);

    public ExitRules {
        noRestartExitCodes = copy(noRestartExitCodes);
        restartExitCodes = copy(restartExitCodes);
        noRestartSignals = copy(noRestartSignals);
        restartSignals = copy(restartSignals);
    }

    /**
     * The rule an exit matched.
     *
     * @param restart whether the rule restarts the task (false: it ends it)
     * @param key     the policy key that lists the exit ({@code RestartExitCodes}, …)
     * @param value   the listed value that matched: an exit code ({@code 3}) or a canonical signal name ({@code SIGTERM})
     */
    public record Match(boolean restart, String key, String value) {

        /** The exit as a reason names it: {@code Exit code 3} or {@code Signal SIGTERM}. */
        public String exit() {
            return NO_RESTART_SIGNALS.equals(key) || RESTART_SIGNALS.equals(key) ? "Signal " + value : "Exit code " + value;
        }
    }

    /** Whether no rule is set. */
    public boolean isEmpty() {
        return noRestartExitCodes.isEmpty() && restartExitCodes.isEmpty() && noRestartSignals.isEmpty() && restartSignals.isEmpty();
    }

    /** The rule that an exit with this code and signal (0 when none) matches, signals first. */
    public Optional<Match> match(int exitCode, int signal) {
        if (signal != 0) {
            if (listsSignal(noRestartSignals, signal)) {
                return Optional.of(new Match(false, NO_RESTART_SIGNALS, Signals.name(signal)));
            }
            if (listsSignal(restartSignals, signal)) {
                return Optional.of(new Match(true, RESTART_SIGNALS, Signals.name(signal)));
            }
        }
        if (noRestartExitCodes.contains(exitCode)) {
            return Optional.of(new Match(false, NO_RESTART_EXIT_CODES, Integer.toString(exitCode)));
        }
        if (restartExitCodes.contains(exitCode)) {
            return Optional.of(new Match(true, RESTART_EXIT_CODES, Integer.toString(exitCode)));
        }
        return Optional.empty();
    }

    /**
     * Codes within 0–255, known signal names, no null, and no exit listed twice (in one list or in both a
     * {@code NoRestart…} and a {@code Restart…} list). The violation's field is the policy key.
     */
    public List<RestartPolicy.Violation> validate() {
        List<RestartPolicy.Violation> problems = new ArrayList<>();
        Set<Integer> codes = new HashSet<>();
        codes(NO_RESTART_EXIT_CODES, noRestartExitCodes, codes, problems);
        codes(RESTART_EXIT_CODES, restartExitCodes, codes, problems);
        Set<Integer> signals = new HashSet<>();
        signals(NO_RESTART_SIGNALS, noRestartSignals, signals, problems);
        signals(RESTART_SIGNALS, restartSignals, signals, problems);
        return problems;
    }

    private static void codes(String key, List<Integer> listed, Set<Integer> seen, List<RestartPolicy.Violation> problems) {
        for (Integer code : listed) {
            if (code == null || code < 0 || code > 255) {
                problems.add(new RestartPolicy.Violation(key, key + " lists " + code + "; an exit code is 0 to 255"));
            } else if (!seen.add(code)) {
                problems.add(new RestartPolicy.Violation(key, key + " lists exit code " + code + " twice or in both exit-code lists"));
            }
        }
    }

    private static void signals(String key, List<String> listed, Set<Integer> seen, List<RestartPolicy.Violation> problems) {
        for (String name : listed) {
            Optional<Integer> signal = Signals.lookup(name);
            if (signal.isEmpty()) {
                problems.add(new RestartPolicy.Violation(key, key + " lists unknown signal \"" + name + "\""));
            } else if (!seen.add(signal.get())) {
                problems.add(new RestartPolicy.Violation(key, key + " lists signal " + Signals.name(signal.get())
                        + " twice or in both signal lists"));
            }
        }
    }

    private static boolean listsSignal(List<String> listed, int signal) {
        return listed.stream().anyMatch((name) -> Signals.lookup(name).filter((s) -> s == signal).isPresent());
    }

    private static <T> List<T> copy(List<T> list) {
        return list == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(list));
    }
}
