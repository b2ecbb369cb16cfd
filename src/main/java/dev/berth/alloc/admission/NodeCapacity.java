package dev.berth.alloc.admission;

/** The node's schedulable capacity, used for admission; {@link AllocConfiguration} reads it from the fingerprinted node. */
public interface NodeCapacity {

    /** Total CPU compute in MHz (cores × frequency), minus anything reserved. */
    long cpuMhz();

    /** Total memory in MB, minus anything reserved. */
    long memoryMb();
}
