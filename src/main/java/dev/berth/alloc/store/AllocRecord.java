package dev.berth.alloc.store;

import java.util.Objects;

import dev.berth.alloc.spec.AllocationSpec;

/**
 * What is persisted per allocation: the spec (with defaults and assigned ports; it carries the modify index and the
 * desired status) and the client status derived from the task states.
 */
public record AllocRecord(AllocationSpec spec, String clientStatus, String clientDescription) {

    public AllocRecord {
        Objects.requireNonNull(spec, "'spec' must not be null");
        Objects.requireNonNull(spec.id(), "'spec.id' must not be null");
        clientStatus = clientStatus == null ? ClientStatus.PENDING : clientStatus;
        clientDescription = clientDescription == null ? "" : clientDescription;
    }

    public String id() {
        return spec.id();
    }

    /**
     * Whether the allocation is done or to be done with: the server wants it stopped ({@code DesiredStatus} stop or evict)
     * or its tasks are over ({@code ClientStatus} complete, failed or lost).
     */
    public boolean terminal() {
        return spec.desiredTerminal() || ClientStatus.terminal(clientStatus);
    }

    public AllocRecord withSpec(AllocationSpec newSpec) {
        return new AllocRecord(newSpec, clientStatus, clientDescription);
    }

    public AllocRecord withStatus(String status, String description) {
        return new AllocRecord(spec, status, description);
    }
}
