package dev.berth.fingerprint;

import java.util.Objects;

/**
 * One host volume the node offers to tasks (Nomad's {@code ClientHostVolumeConfig}, a value of the node's
 * {@code HostVolumes}): a directory or file on the host that a task group's {@code volume} of type {@code host} names as
 * its {@code source}.
 *
 * @param name     the name jobs use as the volume's {@code source}
 * @param path     absolute path on the host
 * @param readOnly whether tasks may only read it (then no job may ask for it writable)
 * @param id       the dynamic host volume's ID; empty for a volume from the agent's configuration
 */
public record HostVolume(String name, String path, boolean readOnly, String id) {

    public HostVolume {
        Objects.requireNonNull(name, "'name' must not be null");
        Objects.requireNonNull(path, "'path' must not be null");
        id = id == null ? "" : id;
    }
}
