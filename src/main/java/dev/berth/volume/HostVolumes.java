package dev.berth.volume;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.springframework.stereotype.Component;

import dev.berth.fingerprint.HostVolume;
import dev.berth.fingerprint.NodeRegistry;

/**
 * The host volumes this node offers (Nomad's node {@code HostVolumes}): those of the agent's configuration
 * ({@link HostVolumeProperties}). The set is written into the node when the agent starts, so {@code /v1/node/self}
 * shows it and admission and the scheduler read it from one place.
 */
@Component
public class HostVolumes {

    private final NodeRegistry node;

    public HostVolumes(HostVolumeProperties properties, NodeRegistry node) {
        this.node = node;
        Map<String, HostVolume> configured = new LinkedHashMap<>();
        properties.hostVolumes().forEach((name, v) -> configured.put(name, new HostVolume(name, v.path().toString(), v.readOnly(), "")));
        node.update(n -> n.withHostVolumes(configured));
    }

    /** The volume named {@code name}, if this node offers it. */
    public Optional<HostVolume> get(String name) {
        return Optional.ofNullable(all().get(name));
    }

    /** Every volume this node offers, by name. */
    public Map<String, HostVolume> all() {
        return node.current().hostVolumes();
    }
}
