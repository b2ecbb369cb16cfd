package dev.berth.state;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import dev.berth.events.IndexStore;

/** The node index's high-water mark in the one-row {@code node_index} table. */
@Component
class JpaIndexStore implements IndexStore {

    private final NodeIndexRepository repository;

    JpaIndexStore(NodeIndexRepository repository) {
        this.repository = repository;
    }

    @Override
    @Transactional(readOnly = true)
    public long highWater() {
        return repository.findById(1).map(NodeIndexEntity::highWater).orElse(0L);
    }

    @Override
    @Transactional
    public void reserveThrough(long highWater) {
        NodeIndexEntity row = repository.findById(1).orElseGet(() -> new NodeIndexEntity(0));
        if (highWater > row.highWater()) {
            row.highWater(highWater);
            repository.save(row);
        }
    }
}
