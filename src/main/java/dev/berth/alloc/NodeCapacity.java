package dev.berth.alloc;

/**
 * Port: the node's schedulable capacity, used for admission. The lead wires it to the fingerprinted node; until then
 * {@link AllocConfiguration} provides an OSHI-based default.
 */
public interface NodeCapacity {

    /** Total CPU compute in MHz (cores × frequency), minus anything reserved. */
    long cpuMhz();

    /** Total memory in MB, minus anything reserved. */
    long memoryMb();
}
