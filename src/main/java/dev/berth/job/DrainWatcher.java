package dev.berth.job;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.alloc.AllocManager;
import dev.berth.alloc.AllocView;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.fingerprint.NodeScheduling;

/**
 * Carries the node's drain out, one step per scheduler pass: reads the scheduler's allocations on the node, asks
 * {@link NodeDrainPlan} what to stop, marks each as migrating and has the scheduler stop it, and completes the drain
 * when the plan says it is done. Deadlines are judged on the injected clock.
 */
final class DrainWatcher {

    private final NodeDrain drain;
    private final PlacementBook book;
    private final AllocManager allocs;
    private final Deployments deployments;
    private final JobRegistry jobs;
    private final Clock clock;
    private final Consumer<Placement> migrate;

    DrainWatcher(NodeDrain drain, PlacementBook book, AllocManager allocs, Deployments deployments, JobRegistry jobs, Clock clock,
                 Consumer<Placement> migrate) {
        this.drain = drain;
        this.book = book;
        this.allocs = allocs;
        this.deployments = deployments;
        this.jobs = jobs;
        this.clock = clock;
        this.migrate = migrate;
    }

    void step() {
        NodeScheduling.DrainStrategy strategy = drain.current().drain();
        if (strategy == null) {
            return;
        }
        NodeDrainPlan plan = NodeDrainPlan.compute(strategy, clock.instant(), candidates());
        for (String allocId : plan.stop()) {
            drain.markMigrated(allocId);
            book.get(allocId).ifPresent(migrate);
        }
        if (plan.done()) {
            drain.complete(plan.deadlineReached());
        }
    }

    private List<NodeDrainPlan.Alloc> candidates() {
        List<NodeDrainPlan.Alloc> out = new ArrayList<>();
        for (Placement p : book.all()) {
            Optional<AllocView> view = allocs.get(p.allocId());
            Optional<ObjectNode> job = jobs.job(p.namespace(), p.jobId());
            if (view.isEmpty() || job.isEmpty()) {
                continue;
            }
            String status = view.get().record().clientStatus();
            boolean terminal = view.get().record().spec().desiredTerminal() || ClientStatus.terminal(status);
            JsonNode group = group(job.get(), p.group());
            out.add(new NodeDrainPlan.Alloc(p.allocId(), kind(job.get()), p.namespace() + "/" + p.jobId() + "/" + p.group(),
                    group.path("Count").asInt(1), group.path("Migrate").path("MaxParallel").asInt(1), terminal,
                    !terminal && healthy(p, status), drain.migrated(p.allocId())));
        }
        return out;
    }

    /** Healthy for a migration: its deployment decided its health; without a deployment, it runs. */
    private boolean healthy(Placement p, String status) {
        if (p.deploymentId() != null) {
            return deployments.allocStatus(p.deploymentId(), p.allocId()).map(s -> s.healthy() != null).orElse(false);
        }
        return ClientStatus.RUNNING.equals(status);
    }

    private static NodeDrainPlan.Kind kind(ObjectNode job) {
        return switch (job.path("Type").asString("service")) {
            case "batch" -> NodeDrainPlan.Kind.BATCH;
            case "system", "sysbatch" -> NodeDrainPlan.Kind.SYSTEM;
            default -> NodeDrainPlan.Kind.SERVICE;
        };
    }

    private static JsonNode group(ObjectNode job, String name) {
        for (JsonNode g : job.path("TaskGroups")) {
            if (name.equals(g.path("Name").asString())) {
                return g;
            }
        }
        return job.objectNode();
    }
}
