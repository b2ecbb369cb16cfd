package dev.berth.volume;

import java.util.List;

/**
 * Which allocations use a host volume (implemented where the allocations are known): a volume is in use while an
 * allocation that is not client-terminal has a group {@code volume} of type {@code host} whose {@code source} is its
 * name. Such a volume can be neither deleted nor updated.
 */
@FunctionalInterface
public interface VolumeClaims {

    /** The IDs of the allocations using the host volume named {@code name}, sorted. */
    List<String> claimedBy(String name);
}
