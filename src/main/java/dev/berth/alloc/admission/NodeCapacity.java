package dev.berth.alloc.admission;

import dev.berth.host.CoreSet;

/** The node's schedulable capacity, used for admission; {@link AllocConfiguration} reads it from the fingerprinted node. */
public interface NodeCapacity {

    /** Total CPU compute in MHz (cores × frequency), minus anything reserved. */
    long cpuMhz();

    /** Total memory in MB, minus anything reserved. */
    long memoryMb();

    /** The cores tasks may reserve ({@code NodeResources.Cpu.ReservableCpuCores}); none by default. */
    default CoreSet reservableCores() {
        return CoreSet.EMPTY;
    }

    /** One core's MHz: what a reserved core counts as against {@link #cpuMhz()}. */
    default long mhzPerCore() {
        return 0;
    }
}
