package dev.berth.fingerprint;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class NodeRegistryTest {

    private final NodeRegistry registry = TestNodes.registry(Clock.fixed(TestNodes.T0.plusSeconds(5), ZoneOffset.UTC));

    @Test
    void everyChangeBumpsTheModifyIndexAndReachesListenersInOrder() throws Exception {
        List<Node> seen = new ArrayList<>();
        AutoCloseable subscription = registry.subscribe(seen::add);

        registry.update(n -> n.withAttributes(Map.of("a", "1")));
        registry.update(n -> n.withAttributes(Map.of("a", "2")));
        subscription.close();
        registry.update(n -> n.withAttributes(Map.of("a", "3")));

        assertThat(seen).extracting(Node::modifyIndex).containsExactly(2L, 3L);
        assertThat(seen).extracting(n -> n.attributes().get("a")).containsExactly("1", "2");
        assertThat(registry.current().modifyIndex()).isEqualTo(4);
    }

    @Test
    void anUpdateThatChangesNothingIsNotAChange() {
        List<Node> seen = new ArrayList<>();
        registry.subscribe(seen::add);

        Node result = registry.update(n -> n);

        assertThat(result.modifyIndex()).isEqualTo(1);
        assertThat(seen).isEmpty();
    }

    @Test
    void aFailingListenerDoesNotStopTheChangeOrOtherListeners() {
        List<Node> seen = new ArrayList<>();
        registry.subscribe(n -> {
            throw new IllegalStateException("boom");
        });
        registry.subscribe(seen::add);

        registry.update(n -> n.withAttributes(Map.of("a", "1")));

        assertThat(registry.current().attributes()).containsEntry("a", "1");
        assertThat(seen).hasSize(1);
    }

    @Test
    void keepsOnlyTheNewestTenEvents() {
        for (int i = 0; i < 15; i++) {
            registry.addEvent("Driver", "event " + i, Map.of());
        }

        assertThat(registry.current().events()).hasSize(Node.MAX_EVENTS)
                .extracting(NodeEvent::message).first().isEqualTo("event 5");
        assertThat(registry.current().events()).last().extracting(NodeEvent::message).isEqualTo("event 14");
    }

    @Test
    void eventsAreStoredAndComeBackAfterARestartWithNodeReRegistered() {
        InMemoryEventStore store = new InMemoryEventStore();
        Clock clock = Clock.fixed(TestNodes.T0, ZoneOffset.UTC);
        NodeRegistry first = new NodeRegistry(TestNodes.initial(), clock, store);
        first.addEvent("Driver", "Healthy", Map.of("driver", "mock_driver"));
        first.update(n -> n.withAttributes(Map.of("a", "1")));

        assertThat(store.events).extracting(NodeEvent::message).containsExactly("Node registered", "Healthy");

        NodeRegistry second = new NodeRegistry(TestNodes.initial(), clock, store);

        assertThat(second.current().events()).extracting(NodeEvent::message)
                .containsExactly("Node registered", "Healthy", "Node re-registered");
        assertThat(store.events).hasSize(3);
    }

    @Test
    void aFailingEventStoreDoesNotStopTheNode() {
        NodeEventStore broken = new NodeEventStore() {
            @Override
            public List<NodeEvent> recent(int max) {
                throw new IllegalStateException("db down");
            }

            @Override
            public void append(NodeEvent event, int keep) {
                throw new IllegalStateException("db down");
            }
        };
        NodeRegistry registry = new NodeRegistry(TestNodes.initial(), Clock.systemUTC(), broken);

        registry.addEvent("Driver", "Healthy", Map.of());

        assertThat(registry.current().events()).extracting(NodeEvent::message).containsExactly("Node registered", "Healthy");
    }

    /** Stands in for the database adapter. */
    static final class InMemoryEventStore implements NodeEventStore {
        final List<NodeEvent> events = new ArrayList<>();

        @Override
        public List<NodeEvent> recent(int max) {
            return List.copyOf(events.subList(Math.max(0, events.size() - max), events.size()));
        }

        @Override
        public void append(NodeEvent event, int keep) {
            events.add(event);
            while (events.size() > keep) {
                events.removeFirst();
            }
        }
    }

    @Test
    void markReadyChangesStatusOnce() {
        registry.markReady();
        long index = registry.current().modifyIndex();
        registry.markReady();

        assertThat(registry.current().status()).isEqualTo(NodeStatus.READY);
        assertThat(registry.current().statusUpdatedAt()).isEqualTo(TestNodes.T0.plusSeconds(5));
        assertThat(registry.current().modifyIndex()).isEqualTo(index);
    }
}
