package dev.berth.volume;

import java.util.List;

/**
 * Where dynamic host volumes persist (implemented in {@code state}), so the node offers them again after an agent
 * restart. Each call is one transaction.
 */
public interface HostVolumeStore {

    /** Every stored volume, by ID. */
    List<DynamicHostVolume> all();

    /** Adds or replaces the volume with its ID. */
    void put(DynamicHostVolume volume);

    /** Removes the volume with {@code id}, if there is one. */
    void delete(String id);
}
