package dev.berth.fingerprint;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * An immutable snapshot of this agent's node (Nomad's {@code Node}). The {@link NodeRegistry} holds the current one;
 * every change produces a new snapshot with a higher {@link #modifyIndex()}.
 *
 * @param id              stable node ID ({@code dev.berth.config.NodeIdentity})
 * @param name            {@code berth.name}, or the host name
 * @param datacenter      {@code berth.datacenter}
 * @param nodeClass       {@code berth.node-class}
 * @param attributes      fingerprinted attributes, sorted by key
 * @param resources       fingerprinted resources
 * @param links           links to other systems (e.g. a cloud instance ID), sorted by key
 * @param drivers         driver infos by driver name, sorted by name
 * @param meta            operator metadata
 * @param status          initializing until the first full fingerprint, then ready
 * @param statusUpdatedAt when the status last changed
 * @param events          the last {@link #MAX_EVENTS} node events, oldest first
 * @param hostVolumes     the host volumes this node offers to tasks, by name (Nomad's {@code HostVolumes}), sorted by name
 * @param scheduling      whether the scheduler may place work here, and the node's drain
 * @param modifyIndex     incremented on every change
 */
public record Node(String id, String name, String datacenter, String nodeClass, Map<String, String> attributes,
                   NodeResources resources, Map<String, String> links, Map<String, DriverInfo> drivers,
                   Map<String, String> meta, NodeStatus status, Instant statusUpdatedAt, List<NodeEvent> events,
                   Map<String, HostVolume> hostVolumes, NodeScheduling scheduling, long modifyIndex) {

    /** Nomad retains the last 10 node events. */
    public static final int MAX_EVENTS = 10;

    public Node {
        Objects.requireNonNull(id, "'id' must not be null");
        Objects.requireNonNull(resources, "'resources' must not be null");
        Objects.requireNonNull(status, "'status' must not be null");
        attributes = sortedCopy(attributes);
        links = sortedCopy(links);
        drivers = sortedCopy(drivers);
        meta = sortedCopy(meta);
        events = events == null ? List.of() : List.copyOf(events);
        hostVolumes = sortedCopy(hostVolumes);
        scheduling = scheduling == null ? NodeScheduling.DEFAULT : scheduling;
    }

    /** A node that offers no host volume (yet). */
    public Node(String id, String name, String datacenter, String nodeClass, Map<String, String> attributes,
                NodeResources resources, Map<String, String> links, Map<String, DriverInfo> drivers,
                Map<String, String> meta, NodeStatus status, Instant statusUpdatedAt, List<NodeEvent> events,
                long modifyIndex) {
        this(id, name, datacenter, nodeClass, attributes, resources, links, drivers, meta, status, statusUpdatedAt, events,
                Map.of(), NodeScheduling.DEFAULT, modifyIndex);
    }

    private static <V> Map<String, V> sortedCopy(Map<String, V> map) {
        return map == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(map));
    }

    public Node withAttributes(Map<String, String> attributes) {
        return new Node(id, name, datacenter, nodeClass, attributes, resources, links, drivers, meta, status,
                statusUpdatedAt, events, hostVolumes, scheduling, modifyIndex);
    }

    public Node withResources(NodeResources resources) {
        return new Node(id, name, datacenter, nodeClass, attributes, resources, links, drivers, meta, status,
                statusUpdatedAt, events, hostVolumes, scheduling, modifyIndex);
    }

    public Node withLinks(Map<String, String> links) {
        return new Node(id, name, datacenter, nodeClass, attributes, resources, links, drivers, meta, status,
                statusUpdatedAt, events, hostVolumes, scheduling, modifyIndex);
    }

    public Node withDriver(String driverName, DriverInfo info) {
        Map<String, DriverInfo> updated = new LinkedHashMap<>(drivers);
        updated.put(driverName, info);
        return new Node(id, name, datacenter, nodeClass, attributes, resources, links, updated, meta, status,
                statusUpdatedAt, events, hostVolumes, scheduling, modifyIndex);
    }

    public Node withHostVolumes(Map<String, HostVolume> hostVolumes) {
        return new Node(id, name, datacenter, nodeClass, attributes, resources, links, drivers, meta, status,
                statusUpdatedAt, events, hostVolumes, scheduling, modifyIndex);
    }

    public Node withScheduling(NodeScheduling scheduling) {
        return new Node(id, name, datacenter, nodeClass, attributes, resources, links, drivers, meta, status,
                statusUpdatedAt, events, hostVolumes, scheduling, modifyIndex);
    }

    public Node withStatus(NodeStatus status, Instant at) {
        return new Node(id, name, datacenter, nodeClass, attributes, resources, links, drivers, meta, status, at,
                events, hostVolumes, scheduling, modifyIndex);
    }

    /** Appends an event, keeping only the newest {@link #MAX_EVENTS}. */
    public Node withEvent(NodeEvent event) {
        List<NodeEvent> updated = new ArrayList<>(events);
        updated.add(event);
        if (updated.size() > MAX_EVENTS) {
            updated = updated.subList(updated.size() - MAX_EVENTS, updated.size());
        }
        return new Node(id, name, datacenter, nodeClass, attributes, resources, links, drivers, meta, status,
                statusUpdatedAt, updated, hostVolumes, scheduling, modifyIndex);
    }

    Node withModifyIndex(long modifyIndex) {
        return new Node(id, name, datacenter, nodeClass, attributes, resources, links, drivers, meta, status,
                statusUpdatedAt, events, hostVolumes, scheduling, modifyIndex);
    }

    /** Whether {@code other} differs in anything but the modify index. */
    boolean sameContentAs(Node other) {
        return withModifyIndex(0).equals(other.withModifyIndex(0));
    }
}
