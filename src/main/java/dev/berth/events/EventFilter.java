package dev.berth.events;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Which changes an event-stream subscriber gets, as Nomad's {@code topic} and {@code namespace} query parameters say
 * ({@code command/agent/event_endpoint.go}, {@code nomad/stream/subscription.go}): {@code topic=Allocation} (every
 * key), {@code topic=Allocation:<key>} (one object, or any whose filter keys contain it: an allocation's job ID or
 * deployment ID), {@code topic=*} (everything). No {@code topic} at all means everything. Events of a namespace
 * other than the requested one are left out, unless the namespace is {@code *}; events without a namespace (the
 * node) always pass.
 */
public final class EventFilter implements Predicate<Change> {

    /** Nomad's wildcard for "every topic" and "every key". */
    public static final String ALL = "*";

    /** The topics a Nomad server accepts in a subscription; Berth publishes only those of {@link Topic}. */
    static final Set<String> NOMAD_TOPICS = Set.of(ALL, "ACLToken", "ACLPolicy", "ACLRole", "ACLAuthMethod",
            "ACLBindingRule", "Job", "Evaluation", "Allocation", "Deployment", "Node", "NodeDrain", "NodePool", "Service",
            "HostVolume", "CSIVolume", "CSIPlugin", "Operator", "Variable");

    private final Map<String, List<String>> topics;
    private final String namespace;
    private final Function<Change, List<String>> filterKeys;

    private EventFilter(Map<String, List<String>> topics, String namespace, Function<Change, List<String>> filterKeys) {
        this.topics = topics;
        this.namespace = namespace;
        this.filterKeys = filterKeys;
    }

    /**
     * Parses {@code topic} values as Nomad does: {@code Topic} alone means {@code Topic:*}; more than one colon is an
     * error.
     *
     * @param rawTopics  the {@code topic} parameters (null or empty: every topic)
     * @param namespace  the {@code namespace} parameter (null: {@code default})
     * @param filterKeys a change's extra keys (Nomad's {@code FilterKeys})
     * @throws IllegalArgumentException with Nomad's text for a malformed or unknown topic
     */
    public static EventFilter parse(List<String> rawTopics, String namespace, Function<Change, List<String>> filterKeys) {
        Map<String, List<String>> topics = new LinkedHashMap<>();
        if (rawTopics == null || rawTopics.isEmpty()) {
            topics.put(ALL, List.of(ALL));
        } else {
            for (String raw : rawTopics) {
                String[] parts = raw.split(":", -1);
                if (parts.length > 2 || raw.isEmpty()) {
                    throw new IllegalArgumentException(
                            "error parsing topics: Invalid key value pair for topic, topic: " + raw);
                }
                if (!NOMAD_TOPICS.contains(parts[0])) {
                    throw new IllegalArgumentException("error parsing topics: unknown topic: " + parts[0]);
                }
                String key = parts.length == 1 ? ALL : parts[1];
                topics.computeIfAbsent(parts[0], t -> new ArrayList<>()).add(key);
            }
        }
        String ns = namespace == null || namespace.isBlank() ? "default" : namespace;
        return new EventFilter(topics, ns, filterKeys);
    }

    @Override
    public boolean test(Change change) {
        if (!NOMAD_TOPICS.contains(change.topic().name())) {
            return false; // a change Berth keeps for its blocking queries only (namespaces): not an event of Nomad's stream
        }
        String eventNamespace = change.topic() == Topic.Node ? "" : change.namespace();
        if (!eventNamespace.isEmpty() && !ALL.equals(namespace) && !namespace.equals(eventNamespace)) {
            return false;
        }
        List<String> keys = new ArrayList<>(topics.getOrDefault(ALL, List.of()));
        keys.addAll(topics.getOrDefault(change.topic().name(), List.of()));
        if (keys.isEmpty()) {
            return false;
        }
        for (String key : keys) {
            if (ALL.equals(key) || change.key().equals(key)) {
                return true;
            }
        }
        List<String> extra = filterKeys.apply(change);
        return extra != null && keys.stream().anyMatch(extra::contains);
    }

    /** The namespace asked for ({@code default} unless given; {@code *} for every one). */
    public String namespace() {
        return namespace;
    }
}
