package dev.berth.job;

import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.alloc.AllocManager;
import dev.berth.alloc.AllocView;
import dev.berth.alloc.admission.AdmissionException;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.JobSpec;
import dev.berth.alloc.spec.SpecValidationException;
import dev.berth.events.ChangeFeed;

/**
 * Hands the scheduler's placements to the node as allocations ({@link AllocManager#submit}: validation and admission
 * as for any allocation), each submission with the node's next modify index as its {@code AllocModifyIndex}.
 */
final class AllocSubmitter {

    private static final Logger log = LoggerFactory.getLogger(AllocSubmitter.class);

    private final AllocManager allocs;
    private final ChangeFeed feed;
    private final JsonMapper json = JsonMapper.builder().build();

    AllocSubmitter(AllocManager allocs, ChangeFeed feed) {
        this.allocs = allocs;
        this.feed = feed;
    }

    /** Submits a new allocation; false when the node refused it (it does not fit yet, or its spec is invalid). */
    boolean submitNew(ObjectNode job, Placement p) {
        try {
            allocs.submit(p.allocId(), spec(job, p, p.createIndex()));
            return true;
        } catch (AdmissionException e) {
            log.debug("{} does not fit yet: {}", p.name(), e.getMessage());
            return false;
        } catch (SpecValidationException e) {
            log.warn("{} refused: {}", p.name(), e.getMessage());
            return false;
        }
    }

    /** What became of an in-place update. */
    enum InPlaceOutcome {
        SUBMITTED,
        /** The node cannot admit the new size (a resize that does not fit). */
        NOT_ADMITTED,
        /** The updated spec was refused. */
        INVALID
    }

    /** Re-submits a running allocation with a new job version (an in-place update, a resize included). */
    InPlaceOutcome submitExisting(ObjectNode job, Placement p) {
        try {
            allocs.submit(p.allocId(), spec(job, p, nextIndex()));
            return InPlaceOutcome.SUBMITTED;
        } catch (AdmissionException e) {
            log.warn("In-place update of {} not admitted: {}", p.name(), e.getMessage());
            return InPlaceOutcome.NOT_ADMITTED;
        } catch (SpecValidationException e) {
            log.warn("In-place update of {} refused: {}", p.name(), e.getMessage());
            return InPlaceOutcome.INVALID;
        }
    }

    /** Tells the allocation to stop (desired status {@code stop}), unless it already was. */
    void submitStop(Placement p) {
        Optional<AllocView> v = allocs.get(p.allocId());
        if (v.isPresent() && !v.get().record().spec().desiredTerminal()) {
            AllocationSpec spec = v.get().record().spec();
            try {
                allocs.submit(p.allocId(), new AllocationSpec(spec.id(), spec.name(), spec.namespace(), spec.jobId(), spec.job(),
                        spec.taskGroup(), AllocationSpec.DESIRED_STOP, nextIndex(), spec.previousAllocation(), spec.allocatedResources()));
            } catch (AdmissionException | SpecValidationException e) {
                log.warn("Stopping {} refused: {}", p.name(), e.getMessage());
            }
        }
    }

    long nextIndex() {
        try (var pending = feed.begin()) {
            return pending.index();
        }
    }

    private AllocationSpec spec(ObjectNode job, Placement p, long modifyIndex) {
        JobSpec js = json.treeToValue(job, JobSpec.class);
        return new AllocationSpec(p.allocId(), p.name(), p.namespace(), p.jobId(), js, p.group(), AllocationSpec.DESIRED_RUN,
                modifyIndex, p.previousAlloc(), null);
    }
}
