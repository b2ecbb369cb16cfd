package dev.berth.variables;

/**
 * What a write did: written (the variable as the writer may now see it), deleted, or refused by a conflict (a stale
 * check-and-set index, or a lock someone else holds), carrying the current variable as Nomad's 409 answer shows it.
 */
public sealed interface VariableOutcome {

    /** The node modify index the answer is for ({@code X-Nomad-Index}). */
    long index();

    record Written(Variable variable, long index) implements VariableOutcome {
    }

    record Deleted(long index) implements VariableOutcome {
    }

    /** @param current the variable as it is, or {@link Variable#zero} where Nomad shows only its namespace and path */
    record Conflict(Variable current) implements VariableOutcome {
        @Override
        public long index() {
            return current.meta().modifyIndex();
        }
    }
}
