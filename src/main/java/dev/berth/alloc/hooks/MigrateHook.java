package dev.berth.alloc.hooks;

import java.io.IOException;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;

import dev.berth.alloc.runner.AllocHooks.AllocDestroyHook;
import dev.berth.alloc.runner.AllocHooks.AllocHookContext;
import dev.berth.alloc.runner.AllocHooks.AllocPreKillHook;
import dev.berth.alloc.runner.AllocHooks.AllocPrerunHook;
import dev.berth.alloc.runner.AllocRunner;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.task.TaskEvent;

/**
 * Nomad's {@code await_previous_allocations} + {@code migrate_disk} prerun: an alloc with a
 * {@code PreviousAllocation} on this node waits until it is terminal, then, if the group's {@code EphemeralDisk} is
 * {@code Sticky} or {@code Migrate}, moves the predecessor's {@code alloc/data} and each task's {@code local/} into the
 * new alloc dir before any task starts.
 *
 * <ul>
 *   <li>A failed migration is a soft failure: the alloc dir is rebuilt empty and every task gets a
 *       {@code Task hook message} event with the error; the tasks still start.</li>
 *   <li>Stopping or destroying the waiting alloc cancels the wait: a hard prerun failure (its tasks fail setup).</li>
 *   <li>Agent shutdown ends the wait without starting the tasks; a restarted agent waits again.</li>
 * </ul>
 * {@link #migrating()} feeds the {@code allocations.migrating} gauge.
 */
public class MigrateHook implements AllocPrerunHook, AllocPreKillHook, AllocDestroyHook, Ordered {

    private static final Logger log = LoggerFactory.getLogger(MigrateHook.class);
    public static final String HOOK_MESSAGE = "Task hook message";

    private final PrevAllocWatcher watcher;
    private final Clock clock;
    private final Map<String, CompletableFuture<Void>> cancels = new ConcurrentHashMap<>();
    private final AtomicInteger migrating = new AtomicInteger();

    public MigrateHook(PrevAllocWatcher watcher, Clock clock) {
        this.watcher = watcher;
        this.clock = clock;
    }

    @Override
    public String name() {
        return "migrate_disk";
    }

    /** After {@code alloc_dir} (0), before the log hook (30). */
    @Override
    public int getOrder() {
        return 20;
    }

    /** Allocations moving their predecessor's data right now. */
    public int migrating() {
        return migrating.get();
    }

    @Override
    public void prerun(AllocHookContext context) throws Exception {
        String id = context.alloc().id();
        String previous = context.alloc().previousAllocation();
        if (previous == null || previous.isEmpty()) {
            return;
        }
        CompletableFuture<Void> cancel = cancels.computeIfAbsent(id, k -> new CompletableFuture<>());
        PrevAllocWatcher.Outcome outcome;
        try {
            outcome = watcher.await(id, previous, cancel);
        } finally {
            cancels.remove(id);
        }
        if (outcome != PrevAllocWatcher.Outcome.TERMINATED) {
            if (outcome == PrevAllocWatcher.Outcome.NONE) {
                log.info("previous allocation is not on this node; not waiting: alloc={} previous={}", id, previous);
            }
            return;
        }
        TaskGroupSpec group = context.alloc().group().orElseThrow();
        if (!sticky(group.ephemeralDisk())) {
            return;
        }
        Optional<AllocRunner> prev = watcher.runner(previous);
        if (prev.isEmpty()) {
            return; // destroyed (GC) meanwhile: nothing left to move
        }
        migrating.incrementAndGet();
        try {
            context.dir().moveFrom(prev.get().dir(), group.tasks().stream().map(TaskSpec::name).toList());
            log.info("migrated data from previous allocation: alloc={} previous={}", id, previous);
        } catch (IOException | RuntimeException e) {
            log.warn("error migrating data from previous allocation: alloc={} previous={}", id, previous, e);
            context.dir().destroy();
            context.dir().build();
            String msg = "failed to migrate data from previous allocation " + previous + ": " + e.getMessage();
            watcher.runner(id).ifPresent(self -> self.taskRunners().forEach(tr -> tr.emit(
                    new TaskEvent(HOOK_MESSAGE, clock.instant(), msg, Map.of("message", msg), false, 0, 0, 0, 0))));
        } finally {
            migrating.decrementAndGet();
        }
    }

    /** {@code Sticky} or {@code Migrate} (migrate implies sticky). */
    static boolean sticky(Map<String, Object> ephemeralDisk) {
        return ephemeralDisk != null
                && (Boolean.TRUE.equals(ephemeralDisk.get("Sticky")) || Boolean.TRUE.equals(ephemeralDisk.get("Migrate")));
    }

    @Override
    public void preKill(AllocHookContext context) {
        cancel(context.alloc().id());
    }

    @Override
    public void destroy(AllocHookContext context) {
        cancel(context.alloc().id());
    }

    private void cancel(String id) {
        CompletableFuture<Void> c = cancels.get(id);
        if (c != null) {
            c.complete(null);
        }
    }
}
