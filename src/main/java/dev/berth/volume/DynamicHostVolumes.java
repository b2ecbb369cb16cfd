package dev.berth.volume;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentSkipListMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import dev.berth.config.BerthProperties;
import dev.berth.events.ChangeFeed;
import dev.berth.events.Topic;
import dev.berth.fingerprint.HostVolume;
import dev.berth.fingerprint.NodeRegistry;

import static dev.berth.volume.HostVolumeRules.quote;

/**
 * Nomad 1.10's dynamic host volumes on this node (the server's {@code HostVolume} endpoint and the client's host volume
 * manager in one): {@link #create} asks the built-in {@code mkdir} plugin for a directory, {@link #register} takes a
 * path that exists, {@link #delete} removes a volume no allocation uses. A ready volume is one of the node's
 * {@link HostVolumes}, so jobs mount it by name as they mount a configured one. Volumes are stored
 * ({@link HostVolumeStore}) and offered again when the agent starts. Writes run one at a time; each takes the node's
 * next modify index and publishes a {@code HostVolume} change.
 */
@Component
public class DynamicHostVolumes {

    private static final Logger log = LoggerFactory.getLogger(DynamicHostVolumes.class);

    static final String REGISTERED = "HostVolumeRegistered";
    static final String DELETED = "HostVolumeDeleted";
    /** The one node pool a Berth node is in. */
    static final String NODE_POOL = "default";
    /** Nomad's plugin ID for a created volume that names none (a client has no such plugin unless one is installed). */
    static final String DEFAULT_PLUGIN = "default";
    private static final String UNAVAILABLE = "unavailable";
    /** The node attribute naming a host volume plugin's version (the node has it for every plugin it offers). */
    static final String PLUGIN_ATTRIBUTE = "plugins.host_volume.%s.version";

    private final HostVolumes hostVolumes;
    private final HostVolumeStore store;
    private final ChangeFeed feed;
    private final VolumeClaims claims;
    private final VolumePlacement placement;
    private final NodeRegistry node;
    private final MkdirPlugin mkdir;
    private final Clock clock;
    private final Map<String, DynamicHostVolume> byId = new ConcurrentSkipListMap<>();
    private final Object writeLock = new Object();

    public DynamicHostVolumes(HostVolumes hostVolumes, HostVolumeStore store, ChangeFeed feed, VolumeClaims claims,
                              VolumePlacement placement, NodeRegistry node, HostVolumeProperties properties,
                              BerthProperties berth, Clock clock) {
        this.hostVolumes = hostVolumes;
        this.store = store;
        this.feed = feed;
        this.claims = claims;
        this.placement = placement;
        this.node = node;
        this.mkdir = new MkdirPlugin(properties.volumesDir(berth.dataDir()));
        this.clock = clock;
        restore();
    }

    /**
     * Creates the volume (or updates the one whose {@code id} it names) with its plugin and offers it.
     *
     * @param request the volume as asked for; its namespace already resolved
     * @return the volume as stored, ready
     * @throws HostVolumeException INVALID with Nomad's text when it breaks a rule or cannot be placed on this node
     */
    public DynamicHostVolume create(DynamicHostVolume request) {
        synchronized (writeLock) {
            checkFields(request);
            Optional<DynamicHostVolume> existing = existingFor(request);
            String id = existing.map(DynamicHostVolume::id).orElseGet(() -> UUID.randomUUID().toString());
            String plugin = !request.pluginId().isEmpty() ? request.pluginId()
                    : existing.map(DynamicHostVolume::pluginId).orElse(DEFAULT_PLUGIN);
            List<DynamicHostVolume.Constraint> constraints = existing.map(DynamicHostVolume::constraints).orElse(request.constraints());
            checkNodeAndPool(request, request.name());
            place(request.name(), id, plugin, constraints, !request.nodeId().isEmpty() || existing.isPresent());
            checkNameFree(request.name(), id);
            Path path = mkdir.create(id, request.parameters());
            return write(new DynamicHostVolume(request.namespace(), id, request.name(), plugin, NODE_POOL, node.current().id(),
                    constraints, request.requestedCapacityMinBytes(), request.requestedCapacityMaxBytes(), 0,
                    capabilities(request), request.parameters(), path.toString(), DynamicHostVolume.READY, 0,
                    existing.map(DynamicHostVolume::createTime).orElse(0L), 0, 0), existing);
        }
    }

    /**
     * Registers a volume at an existing {@code HostPath} (no plugin runs) and offers it.
     *
     * @throws HostVolumeException INVALID with Nomad's text when it breaks a rule or its path does not exist
     */
    public DynamicHostVolume register(DynamicHostVolume request) {
        synchronized (writeLock) {
            if (request.nodeId().isEmpty()) {
                throw invalid("cannot register volume: node ID is required");
            }
            if (request.hostPath().isEmpty()) {
                throw invalid("cannot register volume: host path is required");
            }
            checkFields(request);
            Optional<DynamicHostVolume> existing = existingFor(request);
            String id = existing.map(DynamicHostVolume::id).orElseGet(() -> UUID.randomUUID().toString());
            String plugin = !request.pluginId().isEmpty() ? request.pluginId() : existing.map(DynamicHostVolume::pluginId).orElse("");
            checkNodeAndPool(request, id);
            checkNameFree(request.name(), id);
            if (!Files.exists(Path.of(request.hostPath()))) {
                throw invalid("could not verify host path for " + quote(request.name()) + ": stat " + request.hostPath()
                        + ": no such file or directory");
            }
            return write(new DynamicHostVolume(request.namespace(), id, request.name(), plugin, NODE_POOL, node.current().id(),
                    existing.map(DynamicHostVolume::constraints).orElse(request.constraints()),
                    request.requestedCapacityMinBytes(), request.requestedCapacityMaxBytes(), request.capacityBytes(),
                    capabilities(request), request.parameters(), request.hostPath(), DynamicHostVolume.READY, 0,
                    existing.map(DynamicHostVolume::createTime).orElse(0L), 0, 0), existing);
        }
    }

    /**
     * Deletes the volume: a created one's plugin removes it; a registered one's path is left as it is.
     *
     * @return the node index of the deletion
     * @throws HostVolumeException NOT_FOUND for an unknown ID, IN_USE while allocations use it
     */
    public long delete(String namespace, String id) {
        synchronized (writeLock) {
            DynamicHostVolume v = get(namespace, id).orElseThrow(() -> new HostVolumeException(
                    HostVolumeException.Kind.NOT_FOUND, "no such volume: " + id));
            List<String> using = claims.claimedBy(v.name());
            if (!using.isEmpty()) {
                throw new HostVolumeException(HostVolumeException.Kind.IN_USE,
                        "volume " + id + " in use by allocations: [" + String.join(" ", using) + "]");
            }
            if (MkdirPlugin.ID.equals(v.pluginId())) {
                mkdir.delete(id);
            }
            try (ChangeFeed.Pending pending = feed.begin()) {
                store.delete(id);
                byId.remove(id);
                offerReady();
                pending.publish(Topic.HostVolume, DELETED, id, v.namespace(), v);
                return pending.index();
            }
        }
    }

    /** The volume with {@code id} in {@code namespace} ({@code *}: any). */
    public Optional<DynamicHostVolume> get(String namespace, String id) {
        return Optional.ofNullable(byId.get(id)).filter(v -> "*".equals(namespace) || v.namespace().equals(namespace));
    }

    /** The volumes in {@code namespace} ({@code *}: all) whose ID starts with {@code prefix}, by ID; an empty filter matches all. */
    public List<DynamicHostVolume> list(String namespace, String prefix, String nodeId, String nodePool, String pluginId) {
        return byId.values().stream()
                .filter(v -> "*".equals(namespace) || v.namespace().equals(namespace))
                .filter(v -> v.id().startsWith(prefix))
                .filter(v -> nodeId.isEmpty() || v.nodeId().equals(nodeId))
                .filter(v -> nodePool.isEmpty() || v.nodePool().equals(nodePool))
                .filter(v -> pluginId.isEmpty() || v.pluginId().equals(pluginId))
                .toList();
    }

    /** The IDs of the allocations using {@code volume}. */
    public List<String> claimsOf(DynamicHostVolume volume) {
        return claims.claimedBy(volume.name());
    }

    private void checkFields(DynamicHostVolume request) {
        List<String> errors = HostVolumeRules.validate(request);
        if (!errors.isEmpty()) {
            throw invalid("volume validation failed: " + HostVolumeRules.flatten(errors));
        }
    }

    /** The volume a request with an ID updates (refused when there is none, or when it may not change so). */
    private Optional<DynamicHostVolume> existingFor(DynamicHostVolume request) {
        if (request.id().isEmpty()) {
            return Optional.empty();
        }
        DynamicHostVolume existing = get(request.namespace(), request.id()).orElseThrow(() ->
                invalid("cannot update volume " + quote(request.id()) + ": volume does not exist"));
        List<String> errors = HostVolumeRules.validateUpdate(request, existing, claims.claimedBy(existing.name()));
        if (!errors.isEmpty()) {
            throw invalid("validating volume " + quote(request.id()) + " update failed: " + HostVolumeRules.listed(errors));
        }
        return Optional.of(existing);
    }

    private void checkNodeAndPool(DynamicHostVolume request, String named) {
        String why = null;
        if (!request.nodeId().isEmpty() && !request.nodeId().equals(node.current().id())) {
            why = "node " + quote(request.nodeId()) + " does not exist";
        } else if (!request.nodePool().isEmpty() && !NODE_POOL.equals(request.nodePool())) {
            why = "node pool " + quote(request.nodePool()) + " does not exist";
        }
        if (why != null) {
            throw invalid("validating volume " + quote(named) + " against state failed: " + why);
        }
    }

    /** Nomad's placement: the node must have the plugin and meet the constraints (and, unless named, lack the name). */
    private void place(String name, String id, String plugin, List<DynamicHostVolume.Constraint> constraints, boolean nodeNamed) {
        List<DynamicHostVolume.Constraint> all = new java.util.ArrayList<>();
        all.add(new DynamicHostVolume.Constraint("${attr." + PLUGIN_ATTRIBUTE.formatted(plugin) + "}", "", "is_set"));
        all.addAll(constraints);
        boolean feasible = placement.feasible(all);
        if (nodeNamed) {
            if (!feasible) {
                throw invalid("could not place volume " + quote(name) + ": node " + node.current().id() + " is not feasible for volume");
            }
            return;
        }
        boolean taken = nameTakenByOther(name, id);
        if (taken || !feasible) {
            throw invalid("could not place volume " + quote(name) + ": no node meets constraints: " + (taken ? 1 : 0)
                    + " nodes had existing volume, 0 nodes filtered by node pool governance, " + (taken ? 0 : 1)
                    + " nodes were infeasible");
        }
    }

    private void checkNameFree(String name, String id) {
        if (nameTakenByOther(name, id)) {
            throw invalid("volume name already exists on this node");
        }
    }

    private boolean nameTakenByOther(String name, String id) {
        HostVolume offered = hostVolumes.all().get(name);
        return (offered != null && !offered.id().equals(id))
                || byId.values().stream().anyMatch(v -> v.name().equals(name) && !v.id().equals(id));
    }

    private static List<DynamicHostVolume.Capability> capabilities(DynamicHostVolume request) {
        return request.requestedCapabilities().isEmpty()
                ? List.of(new DynamicHostVolume.Capability("file-system", "single-node-writer"))
                : request.requestedCapabilities();
    }

    /** Stores {@code v} with the next index (and, when new, as created now) and offers it. */
    private DynamicHostVolume write(DynamicHostVolume v, Optional<DynamicHostVolume> existing) {
        try (ChangeFeed.Pending pending = feed.begin()) {
            long now = nanos(clock.instant());
            DynamicHostVolume stored = new DynamicHostVolume(v.namespace(), v.id(), v.name(), v.pluginId(), v.nodePool(),
                    v.nodeId(), v.constraints(), v.requestedCapacityMinBytes(), v.requestedCapacityMaxBytes(),
                    v.capacityBytes(), v.requestedCapabilities(), v.parameters(), v.hostPath(), v.state(),
                    existing.map(DynamicHostVolume::createIndex).orElse(pending.index()),
                    existing.isPresent() ? v.createTime() : now, pending.index(), now);
            store.put(stored);
            byId.put(stored.id(), stored);
            offerReady();
            pending.publish(Topic.HostVolume, REGISTERED, stored.id(), stored.namespace(), stored);
            return stored;
        }
    }

    private void offerReady() {
        hostVolumes.offer(byId.values().stream().filter(v -> DynamicHostVolume.READY.equals(v.state()))
                .map(DynamicHostVolume::offered).toList());
    }

    /**
     * Offers the stored volumes again: a {@code mkdir} volume's directory is made again if it went missing (as Nomad's
     * client re-runs the plugin); a volume whose path cannot be had is kept but {@code unavailable}, not offered.
     */
    private void restore() {
        for (DynamicHostVolume v : store.all()) {
            byId.put(v.id(), restored(v));
        }
        offerReady();
    }

    private DynamicHostVolume restored(DynamicHostVolume v) {
        try {
            if (MkdirPlugin.ID.equals(v.pluginId()) && mkdir.pathOf(v.id()).toString().equals(v.hostPath())) {
                mkdir.create(v.id(), v.parameters());
            }
        } catch (HostVolumeException e) {
            log.error("dynamic host volume {} ({}) could not be restored: {}", v.id(), v.name(), e.getMessage());
        }
        if (Files.exists(Path.of(v.hostPath()))) {
            return v;
        }
        log.error("dynamic host volume {} ({}) is not offered: its path {} does not exist", v.id(), v.name(), v.hostPath());
        return v.withState(UNAVAILABLE);
    }

    private static HostVolumeException invalid(String message) {
        return new HostVolumeException(HostVolumeException.Kind.INVALID, message);
    }

    private static long nanos(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }
}
