package dev.berth.template;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.spec.TemplateSpec;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.config.Sleeper;
import dev.berth.events.Change;
import dev.berth.events.ChangeFeed;
import dev.berth.template.gotmpl.TemplateException;
import dev.berth.variables.VariableException;

/**
 * Re-renders a task's templates when something they read changes (a variable or service change on the node's feed),
 * for as long as the task lives. With {@code wait}, changes must first settle: a re-render waits until no further change
 * came for {@code min}, but no longer than {@code max} after the first (timed with the injected clock and sleeper). A
 * re-render that changed files applies the change modes; one that waits for a missing variable emits Nomad's
 * {@code Missing} event and keeps the files; one that fails kills the task ({@code Killing}, "Template failed: …").
 */
final class TemplateWatcher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TemplateWatcher.class);
    private static final Duration POLL = Duration.ofMinutes(5);

    private final String key;
    private final ChangeFeed feed;
    private final Predicate<Change> filter;
    private final TaskTemplates templates;
    private final List<TemplateSpec> specs;
    private final Consumer<TaskEvent> events;
    private final ChangeModes modes;
    private final Clock clock;
    private final Sleeper sleeper;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private volatile long index;

    TemplateWatcher(String key, ChangeFeed feed, Predicate<Change> filter, long index, TaskTemplates templates, List<TemplateSpec> specs,
                    Consumer<TaskEvent> events, ChangeModes modes, Clock clock, Sleeper sleeper) {
        this.key = key;
        this.feed = feed;
        this.filter = filter;
        this.index = index;
        this.templates = templates;
        this.specs = List.copyOf(specs);
        this.events = events;
        this.modes = modes;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    void start() {
        Thread.ofVirtual().name("berth-template-" + key).start(this::run);
    }

    /** A start rendered again: changes up to {@code renderedAt} are in the files already. */
    void rendered(long renderedAt) {
        index = Math.max(index, renderedAt);
    }

    /**
     * Ends the watch. The watcher is woken through {@link #closed}, never interrupted: it may be writing the task's
     * events to the state database, whose file channel an interrupt would close for the whole agent.
     */
    @Override
    public void close() {
        closed.complete(null);
    }

    private void run() {
        try {
            while (!closed.isDone()) {
                long changed = next(index, POLL);
                if (changed == 0) {
                    continue;
                }
                settle(changed);
                index = feed.currentIndex();
                rerenderLogged();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The index of the next matching change after {@code after}; 0 when none came within {@code timeout}. */
    private long next(long after, Duration timeout) throws InterruptedException {
        CompletableFuture<Long> change = feed.awaitChange(after, filter, timeout);
        try {
            CompletableFuture.anyOf(change, closed).get();
            return closed.isDone() || change.isCompletedExceptionally() ? 0 : change.getNow(0L);
        } catch (ExecutionException e) {
            return 0;
        } finally {
            change.cancel(false);
        }
    }

    private void settle(long first) throws InterruptedException {
        Duration min = specs.stream().map(TemplateSpec::waitMin).max(Duration::compareTo).orElse(Duration.ZERO);
        if (min.isZero()) {
            return;
        }
        Duration max = specs.stream().map(TemplateSpec::waitMax).max(Duration::compareTo).orElse(min);
        Instant deadline = clock.instant().plus(max);
        long at = first;
        while (clock.instant().isBefore(deadline)) {
            CompletableFuture<Long> more = feed.awaitChange(at, filter, max);
            try {
                if (sleeper.sleep(min, CompletableFuture.anyOf(more, closed)) || closed.isDone()) {
                    return;
                }
                Long next = more.getNow(0L);
                at = next == null || next == 0 ? at : next;
            } finally {
                more.cancel(false);
            }
        }
    }

    /** A re-render that throws unexpectedly is logged; the watch goes on, so a later change may render again. */
    private void rerenderLogged() throws InterruptedException {
        try {
            rerender();
        } catch (RuntimeException e) {
            log.warn("template re-render failed unexpectedly: task={}", key, e);
        }
    }

    private void rerender() throws InterruptedException {
        TaskTemplates.Outcome outcome;
        try {
            outcome = templates.renderAll();
        } catch (TemplateException | IOException | VariableException e) {
            String error = TemplateHook.describe(e);
            log.warn("template re-render failed: task={} error={}", key, error);
            modes.kill(key, "Template failed: " + error);
            return;
        }
        if (!outcome.complete()) {
            events.accept(TemplateEvents.missing(clock.instant(), outcome.dependencies().missing()));
            return;
        }
        if (!outcome.changed().isEmpty()) {
            log.info("templates re-rendered: task={} changed={}", key, outcome.changed().stream().map(TemplateSpec::destination).toList());
            modes.apply(key, outcome.changed(), closed);
        }
    }
}
