package dev.berth.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.berth.events.Change;
import dev.berth.events.Topic;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Renders a {@link Change} as one of Nomad's stream events ({@code nomad/structs/event.go} {@code Event}):
 * {@code Topic}, {@code Type}, {@code Key}, {@code Namespace} (empty for the node), {@code FilterKeys} (an
 * allocation's job and deployment IDs, a service's job ID and name; {@code null} where Nomad has none), {@code Index}
 * and {@code Payload} wrapped by topic ({@code {"Allocation":{…}}}). As Nomad's server does, an allocation's
 * {@code Job} is left out of the event to keep it small. A rendering is cached by index, so many subscribers render
 * each change once.
 */
final class EventJson {

    private static final int CACHE_SIZE = 1024;

    private final JsonMapper jsonMapper;
    private final Map<Long, ObjectNode> cache = new LinkedHashMap<>(CACHE_SIZE, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, ObjectNode> eldest) {
            return size() > CACHE_SIZE;
        }
    };

    private final AllocationJson allocations;

    EventJson(JsonMapper jsonMapper) {
        this(jsonMapper, null);
    }

    /** With {@code allocations}, an allocation change's {@code AllocView} payload is rendered as the API renders it. */
    EventJson(JsonMapper jsonMapper, AllocationJson allocations) {
        this.jsonMapper = jsonMapper;
        this.allocations = allocations;
    }

    /** The event object for a change. */
    ObjectNode event(Change change) {
        synchronized (cache) {
            ObjectNode cached = cache.get(change.index());
            if (cached != null) {
                return cached;
            }
        }
        ObjectNode rendered = render(change);
        synchronized (cache) {
            cache.put(change.index(), rendered);
        }
        return rendered;
    }

    /** Nomad's {@code FilterKeys} of a change ({@code null} when it has none). */
    List<String> filterKeys(Change change) {
        JsonNode keys = event(change).get("FilterKeys");
        if (keys == null || !keys.isArray()) {
            return null;
        }
        List<String> out = new ArrayList<>();
        keys.forEach(k -> out.add(k.asString()));
        return out;
    }

    /** One line of the stream: {@code {"Index":n,"Events":[…]}} for a change. */
    byte[] frame(Change change) {
        ObjectNode frame = JsonNodeFactory.instance.objectNode();
        frame.put("Index", change.index());
        frame.putArray("Events").add(event(change));
        return jsonMapper.writeValueAsBytes(frame);
    }

    private ObjectNode render(Change change) {
        Object raw = allocations != null && change.payload() instanceof dev.berth.alloc.AllocView view
                ? allocations.full(view) : change.payload();
        JsonNode payload = raw == null ? JsonNodeFactory.instance.nullNode()
                : raw instanceof JsonNode node ? node.deepCopy() : jsonMapper.valueToTree(raw);
        if (change.topic() == Topic.Allocation && payload instanceof ObjectNode alloc) {
            alloc.remove("Job");
        }
        ObjectNode event = JsonNodeFactory.instance.objectNode();
        event.put("Topic", change.topic().name());
        event.put("Type", change.type());
        event.put("Key", change.key());
        event.put("Namespace", change.topic() == Topic.Node ? "" : change.namespace());
        List<String> filterKeys = switch (change.topic()) {
            case Allocation, Evaluation -> List.of(text(payload, "JobID"), text(payload, "DeploymentID"));
            case Service -> List.of(text(payload, "JobID"), text(payload, "ServiceName"));
            case Deployment -> List.of(text(payload, "JobID"));
            case Job, Node, Variable, HostVolume, Namespace -> null;
        };
        if (filterKeys == null) {
            event.putNull("FilterKeys");
        } else {
            ArrayNode keys = event.putArray("FilterKeys");
            filterKeys.forEach(keys::add);
        }
        event.put("Index", change.index());
        if (change.topic() == Topic.Variable && change.payload() instanceof dev.berth.variables.VariableEvent variable) {
            event.set("Payload", VariableJson.event(variable)); // Nomad's VariableEvent is not wrapped by its topic
        } else if (change.topic() == Topic.HostVolume && change.payload() instanceof dev.berth.volume.DynamicHostVolume volume) {
            event.putObject("Payload").set("Volume", HostVolumeJson.volume(volume, null)); // Nomad's HostVolumeEvent
        } else {
            event.putObject("Payload").set(change.topic().name(), payload);
        }
        return event;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        return value == null || value.isNull() ? "" : value.asString();
    }
}
