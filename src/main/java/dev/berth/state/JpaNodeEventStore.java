package dev.berth.state;

import java.util.List;
import java.util.Map;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.domain.PageRequest;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import dev.berth.fingerprint.NodeEvent;
import dev.berth.fingerprint.NodeEventStore;

/** Node events in the {@code node_event} table; only the newest {@code keep} rows survive an append. */
@Component
class JpaNodeEventStore implements NodeEventStore {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<Map<String, String>> DETAILS = new TypeReference<>() { };
    private static final int MAX_TEXT = 4000;

    private final NodeEventRepository repository;

    JpaNodeEventStore(NodeEventRepository repository) {
        this.repository = repository;
    }

    @Override
    @Transactional(readOnly = true)
    public List<NodeEvent> recent(int max) {
        List<NodeEventEntity> newestFirst = repository.findByOrderByIdDesc(PageRequest.of(0, max));
        return newestFirst.reversed().stream()
                .map(e -> new NodeEvent(e.message(), e.subsystem(), JSON.readValue(e.details(), DETAILS), e.occurredAt()))
                .toList();
    }

    @Override
    @Transactional
    public void append(NodeEvent event, int keep) {
        String details = JSON.writeValueAsString(event.details());
        if (details.length() > MAX_TEXT) {
            details = "{}";
        }
        repository.save(new NodeEventEntity(truncate(event.subsystem(), 64), truncate(event.message(), MAX_TEXT), details,
                event.timestamp()));
        List<NodeEventEntity> kept = repository.findByOrderByIdDesc(PageRequest.of(0, keep));
        if (kept.size() == keep) {
            repository.deleteOlderThan(kept.getLast().id());
        }
    }

    private static String truncate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max);
    }
}
