package dev.berth.volume;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A dynamic host volume (Nomad 1.10's {@code HostVolume}): a volume created through {@code /v1/volume/host/create} by a
 * plugin, or registered through {@code /v1/volume/host/register} with a path that already exists. Once ready it is one
 * of the node's {@code HostVolumes} under its {@code name}, and jobs mount it as they mount a configured one.
 *
 * @param namespace             the namespace whose jobs may mount it (stored as given)
 * @param id                    its UUID
 * @param name                  the name a group's {@code volume} names as {@code source}; unique on the node
 * @param pluginId              the plugin that created it ({@code mkdir}); empty for a registered volume
 * @param nodePool              the node's pool ({@code default})
 * @param nodeId                this node's ID
 * @param constraints           node constraints checked when it was placed
 * @param requestedCapacityMinBytes the smallest capacity asked for (0: none)
 * @param requestedCapacityMaxBytes the largest capacity asked for (0: none)
 * @param capacityBytes         the capacity the plugin reports (0 for {@code mkdir}: a directory has no size of its own)
 * @param requestedCapabilities the attachment and access modes it offers
 * @param parameters            the plugin's parameters
 * @param hostPath              where it is on the host
 * @param state                 {@code ready} once the node offers it
 * @param createIndex           the node index of its creation
 * @param createTime            when it was created, Unix nanoseconds
 * @param modifyIndex           the node index of its last change
 * @param modifyTime            when it last changed, Unix nanoseconds
 */
public record DynamicHostVolume(String namespace, String id, String name, String pluginId, String nodePool, String nodeId,
                                List<Constraint> constraints, long requestedCapacityMinBytes, long requestedCapacityMaxBytes,
                                long capacityBytes, List<Capability> requestedCapabilities, Map<String, String> parameters,
                                String hostPath, String state, long createIndex, long createTime, long modifyIndex,
                                long modifyTime) {

    /** Nomad's state of a volume the node offers. */
    public static final String READY = "ready";

    public DynamicHostVolume {
        Objects.requireNonNull(id, "'id' must not be null");
        Objects.requireNonNull(name, "'name' must not be null");
        namespace = namespace == null ? "" : namespace;
        pluginId = pluginId == null ? "" : pluginId;
        nodePool = nodePool == null ? "" : nodePool;
        nodeId = nodeId == null ? "" : nodeId;
        hostPath = hostPath == null ? "" : hostPath;
        state = state == null ? "" : state;
        constraints = constraints == null ? List.of() : List.copyOf(constraints);
        requestedCapabilities = requestedCapabilities == null ? List.of() : List.copyOf(requestedCapabilities);
        parameters = parameters == null ? Map.of() : new TreeMap<>(parameters);
    }

    /**
     * A node constraint (Nomad's {@code Constraint}).
     *
     * @param lTarget the left target, interpolated against the node
     * @param rTarget the right target
     * @param operand the operator ({@code =} when empty)
     */
    public record Constraint(String lTarget, String rTarget, String operand) {

        public Constraint {
            lTarget = lTarget == null ? "" : lTarget;
            rTarget = rTarget == null ? "" : rTarget;
            operand = operand == null ? "" : operand;
        }
    }

    /**
     * How tasks may use the volume (Nomad's {@code HostVolumeCapability}).
     *
     * @param attachmentMode {@code file-system} or {@code block-device}
     * @param accessMode     {@code single-node-reader-only}, {@code single-node-writer}, {@code single-node-single-writer}
     *                       or {@code single-node-multi-writer}
     */
    public record Capability(String attachmentMode, String accessMode) {

        public Capability {
            attachmentMode = attachmentMode == null ? "" : attachmentMode;
            accessMode = accessMode == null ? "" : accessMode;
        }
    }

    /** This volume at {@code path} (a register request's {@code HostPath}). */
    public DynamicHostVolume withHostPath(String path) {
        return new DynamicHostVolume(namespace, id, name, pluginId, nodePool, nodeId, constraints, requestedCapacityMinBytes,
                requestedCapacityMaxBytes, capacityBytes, requestedCapabilities, parameters, path, state, createIndex, createTime,
                modifyIndex, modifyTime);
    }

    /** This volume in {@code state}. */
    public DynamicHostVolume withState(String state) {
        return new DynamicHostVolume(namespace, id, name, pluginId, nodePool, nodeId, constraints, requestedCapacityMinBytes,
                requestedCapacityMaxBytes, capacityBytes, requestedCapabilities, parameters, hostPath, state, createIndex, createTime,
                modifyIndex, modifyTime);
    }

    /** The volume as the node offers it to tasks. */
    public dev.berth.fingerprint.HostVolume offered() {
        return new dev.berth.fingerprint.HostVolume(name, hostPath, false, id);
    }
}
