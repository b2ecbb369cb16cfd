package dev.berth.variables;

/**
 * The payload of a {@code Variable} change on the node's feed (Nomad's {@code VariableEvent}): the variable's metadata
 * after the change, never its items, and whether the change deleted it.
 */
public record VariableEvent(VariableMeta metadata, boolean deleted) {
}
