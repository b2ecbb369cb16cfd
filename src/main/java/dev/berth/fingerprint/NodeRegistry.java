package dev.berth.fingerprint;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import dev.berth.config.BerthProperties;
import dev.berth.config.Hostnames;
import dev.berth.config.NodeIdentity;
import dev.berth.events.ChangeFeed;
import dev.berth.events.Topic;

/**
 * Holds the current {@link Node} snapshot. All changes go through {@link #update}, which serialises them under
 * one lock, bumps the modify index and tells the {@link NodeListener}s.
 */
@Component
public class NodeRegistry {

    private static final Logger log = LoggerFactory.getLogger(NodeRegistry.class);

    static final String REGISTERED = "Node registered";
    static final String REREGISTERED = "Node re-registered";

    private final Clock clock;
    private final NodeEventStore eventStore;
    /** Guards {@link #node} and serialises listener notification so listeners see changes in order. */
    private final ReentrantLock lock = new ReentrantLock();
    private final List<NodeListener> listeners = new CopyOnWriteArrayList<>();
    private volatile Node node;
    /** Listener beans still to be subscribed (null once done); guarded by {@link #lock}. */
    private ObjectProvider<NodeListener> listenerBeans;
    /** The node's change feed: node modify indexes are node indexes, and each change is published (null in tests). */
    private volatile ChangeFeed feed;

    @Autowired
    public NodeRegistry(NodeIdentity identity, BerthProperties properties, Clock clock,
                        ObjectProvider<NodeListener> listenerBeans, ObjectProvider<NodeEventStore> eventStore,
                        ObjectProvider<ChangeFeed> feed) {
        // The kernel's host name (no name resolution: Berth never sends traffic off loopback by itself).
        this(initialNode(identity, properties, Hostnames.local(), clock),
                clock, eventStore.getIfAvailable());
        // Looked up at the first change, not here: listener beans may themselves depend on this registry.
        this.listenerBeans = listenerBeans;
        ChangeFeed changes = feed.getIfAvailable();
        if (changes != null) {
            this.feed = changes;
            try (ChangeFeed.Pending pending = changes.begin()) {
                this.node = node.withModifyIndex(pending.index());
                pending.publish(Topic.Node, NODE_REGISTRATION, node.id(), null, node);
            }
        }
    }

    /** Nomad's event type for a node registered or updated. */
    public static final String NODE_REGISTRATION = "NodeRegistration";

    /** For tests and tools: starts from {@code initial}, events in memory only. */
    public NodeRegistry(Node initial, Clock clock) {
        this(initial, clock, null);
    }

    /**
     * Starts from {@code initial}. With an event store, the events stored by earlier runs come first, followed by
     * {@code initial}'s events, which are stored too; Nomad's {@code Node registered} becomes {@code Node re-registered}
     * when earlier events exist.
     */
    public NodeRegistry(Node initial, Clock clock, NodeEventStore eventStore) {
        Objects.requireNonNull(initial, "'initial' must not be null");
        this.clock = clock;
        this.eventStore = eventStore;
        Node start = initial;
        if (eventStore != null) {
            List<NodeEvent> stored = loadStored(eventStore);
            List<NodeEvent> fresh = initial.events().stream()
                    .map(e -> !stored.isEmpty() && REGISTERED.equals(e.message())
                            ? new NodeEvent(REREGISTERED, e.subsystem(), e.details(), e.timestamp()) : e)
                    .toList();
            List<NodeEvent> events = new ArrayList<>(stored);
            events.addAll(fresh);
            // Stored events come first, then this run's; Node keeps the newest MAX_EVENTS.
            start = new Node(initial.id(), initial.name(), initial.datacenter(), initial.nodeClass(), initial.attributes(),
                    initial.resources(), initial.links(), initial.drivers(), initial.meta(), initial.status(),
                    initial.statusUpdatedAt(), events.subList(Math.max(0, events.size() - Node.MAX_EVENTS), events.size()),
                    initial.modifyIndex());
            fresh.forEach(this::store);
        }
        this.node = start;
    }

    static Node initialNode(NodeIdentity identity, BerthProperties properties, String hostName, Clock clock) {
        String name = properties.name().isBlank() ? hostName : properties.name();
        NodeResources resources = new NodeResources(properties.client().minDynamicPort(),
                properties.client().maxDynamicPort());
        // Nomad's first node event, written when the node registers.
        NodeEvent registered = new NodeEvent(REGISTERED, "Cluster", Map.of(), clock.instant());
        return new Node(identity.id(), name, properties.datacenter(), properties.nodeClass(), Map.of(), resources,
                Map.of(), Map.of(), properties.meta(), NodeStatus.INITIALIZING, clock.instant(), List.of(registered), 1);
    }

    private static List<NodeEvent> loadStored(NodeEventStore eventStore) {
        try {
            return eventStore.recent(Node.MAX_EVENTS);
        } catch (RuntimeException ex) {
            log.warn("could not load stored node events", ex);
            return List.of();
        }
    }

    private void store(NodeEvent event) {
        try {
            eventStore.append(event, Node.MAX_EVENTS);
        } catch (RuntimeException ex) {
            log.warn("could not store node event '{}'", event.message(), ex);
        }
    }

    /** The current snapshot. Never null; never blocks. */
    public Node current() {
        return node;
    }

    /**
     * Applies {@code change} to the current node under the node lock. When the result differs, it becomes the current
     * node with the next modify index and listeners are told. {@code change} must be a pure function.
     *
     * @return the node after the change
     */
    public Node update(UnaryOperator<Node> change) {
        lock.lock();
        try {
            Node before = node;
            Node after = Objects.requireNonNull(change.apply(before), "a node change returned null");
            if (after.sameContentAs(before)) {
                return before;
            }
            ChangeFeed changes = feed;
            ChangeFeed.Pending pending = changes == null ? null : changes.begin();
            Node next = after.withModifyIndex(pending == null ? before.modifyIndex() + 1 : pending.index());
            node = next;
            if (pending != null) {
                pending.publish(Topic.Node, NODE_REGISTRATION, next.id(), null, next);
            }
            if (eventStore != null && !next.events().equals(before.events())) {
                next.events().stream().filter(e -> !before.events().contains(e)).forEach(this::store);
            }
            if (listenerBeans != null) {
                listenerBeans.orderedStream().forEach(listeners::add);
                listenerBeans = null;
            }
            for (NodeListener listener : listeners) {
                try {
                    listener.nodeChanged(next);
                } catch (RuntimeException ex) {
                    log.warn("node listener {} failed", listener, ex);
                }
            }
            return next;
        } finally {
            lock.unlock();
        }
    }

    /** Appends a node event. */
    public void addEvent(String subsystem, String message, Map<String, String> details) {
        update(n -> n.withEvent(new NodeEvent(message, subsystem, details, clock.instant())));
    }

    /** Marks the node ready (idempotent). */
    public void markReady() {
        update(n -> n.status() == NodeStatus.READY ? n : n.withStatus(NodeStatus.READY, clock.instant()));
    }

    /** Subscribes a listener; close the returned handle to unsubscribe. */
    public AutoCloseable subscribe(NodeListener listener) {
        listeners.add(Objects.requireNonNull(listener, "'listener' must not be null"));
        return () -> listeners.remove(listener);
    }
}
