package dev.berth.state;

import java.time.Clock;
import java.util.function.Supplier;

import dev.berth.config.NodeIdentityStore;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

@Component
class JpaNodeIdentityStore implements NodeIdentityStore {

    private final NodeIdentityRepository repository;
    private final Clock clock;

    JpaNodeIdentityStore(NodeIdentityRepository repository, Clock clock) {
        this.repository = repository;
        this.clock = clock;
    }

    @Override
    @Transactional
    public String loadOrCreateNodeId(Supplier<String> generator) {
        return repository.findById(1)
                .map(NodeIdentityEntity::nodeId)
                .orElseGet(() -> repository.save(new NodeIdentityEntity(generator.get(), clock.instant())).nodeId());
    }
}
