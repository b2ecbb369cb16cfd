package dev.berth.volume;

import java.util.List;

/**
 * Whether this node meets a volume's constraints (implemented where node constraints are evaluated, with the same
 * operators and targets as a job's constraints).
 */
@FunctionalInterface
public interface VolumePlacement {

    /** Whether the node meets every one of {@code constraints}. */
    boolean feasible(List<DynamicHostVolume.Constraint> constraints);
}
