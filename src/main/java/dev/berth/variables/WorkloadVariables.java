package dev.berth.variables;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import dev.berth.events.Change;
import dev.berth.events.Indexed;

/**
 * The variables a task may read, for what renders inside the task (Nomad's {@code nomadVar}, {@code nomadVarList},
 * {@code nomadVarExists} template functions): each call names the task's identity, and answers only what
 * {@link WorkloadVariablePolicy} lets that identity read. Every answer carries the node modify index it is for, and
 * {@link #changes} is the feed filter to wait on, so a caller can re-read (and re-render) when a variable changes.
 */
public interface WorkloadVariables {

    /**
     * The variable at {@code path} in the task's namespace; empty when there is none. A path the identity may not read
     * is Nomad's {@code Permission denied} ({@link VariableException.Kind#PERMISSION_DENIED}), whether or not it exists.
     */
    Indexed<Optional<Variable>> read(WorkloadIdentity who, String path);

    /** The metadata of the variables under {@code prefix} in the task's namespace that the identity may read. */
    Indexed<List<VariableMeta>> list(WorkloadIdentity who, String prefix);

    /** The changes that may change what {@code who} reads. */
    Predicate<Change> changes(WorkloadIdentity who);
}
