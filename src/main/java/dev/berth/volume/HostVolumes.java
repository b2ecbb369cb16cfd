package dev.berth.volume;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.springframework.stereotype.Component;

import dev.berth.fingerprint.HostVolume;
import dev.berth.fingerprint.NodeRegistry;

/**
 * The host volumes this node offers (Nomad's node {@code HostVolumes}): those of the agent's configuration
 * ({@link HostVolumeProperties}) and the ready dynamic ones ({@link DynamicHostVolumes}); a dynamic volume takes the
 * place of a configured one of the same name, as on a Nomad client. The set is written into the node, so
 * {@code /v1/node/self} shows it (with the attribute {@code plugins.host_volume.mkdir.version} of the built-in
 * plugin) and admission, the scheduler and the volume hook read it from one place.
 */
@Component
public class HostVolumes {

    private final NodeRegistry node;
    private final Map<String, HostVolume> configured = new LinkedHashMap<>();

    public HostVolumes(HostVolumeProperties properties, NodeRegistry node) {
        this.node = node;
        properties.hostVolumes().forEach((name, v) -> configured.put(name, new HostVolume(name, v.path().toString(), v.readOnly(), "")));
        node.update(n -> {
            Map<String, String> attributes = new HashMap<>(n.attributes());
            attributes.put(DynamicHostVolumes.PLUGIN_ATTRIBUTE.formatted(MkdirPlugin.ID), MkdirPlugin.VERSION);
            return n.withAttributes(attributes).withHostVolumes(configured);
        });
    }

    /** Offers the configured volumes and {@code dynamic} (which replaces the whole previous dynamic set). */
    public void offer(Collection<HostVolume> dynamic) {
        Map<String, HostVolume> all = new LinkedHashMap<>(configured);
        dynamic.forEach(v -> all.put(v.name(), v));
        node.update(n -> n.withHostVolumes(all));
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
