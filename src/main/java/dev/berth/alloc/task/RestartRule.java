package dev.berth.alloc.task;

import java.util.Objects;

import dev.berth.alloc.spec.ExitRules;

/** Which rule of the restart policy made a {@link RestartDecision}. */
public sealed interface RestartRule {

    /** Nomad's rules: a kill, a requested restart, a start error, or the attempts within the interval and the mode. */
    RestartRule POLICY = new Policy();

    /** Nomad's rules decided. */
    record Policy() implements RestartRule {
    }

    /**
     * One of Berth's exit rules decided: the exit matched {@code value} listed under the policy key {@code key}.
     *
     * @param key   {@code NoRestartExitCodes}, {@code RestartExitCodes}, {@code NoRestartSignals} or {@code RestartSignals}
     * @param value the exit code ({@code 3}) or the canonical signal name ({@code SIGTERM})
     */
    record ExitRule(String key, String value) implements RestartRule {
        public ExitRule {
            Objects.requireNonNull(key, "'key' must not be null");
            Objects.requireNonNull(value, "'value' must not be null");
        }

        static ExitRule of(ExitRules.Match match) {
            return new ExitRule(match.key(), match.value());
        }

        /** How the task event names it: {@code RestartExitCodes[3]}. */
        public String label() {
            return key + "[" + value + "]";
        }
    }
}
