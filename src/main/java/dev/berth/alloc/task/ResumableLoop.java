package dev.berth.alloc.task;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a state machine on virtual threads without holding a thread while it waits: its step function runs on a new
 * virtual thread, and when it asks to wait for a future ({@link Turn#waitFor}) the thread ends and the step function runs
 * again, on a new virtual thread, once that future completes. A task that runs for days or an allocation whose tasks run
 * then keep no parked thread and no stack. The task and alloc runners both run this way.
 *
 * <p>The step function is never called by two threads at once, and each call happens after the previous one ended, so the
 * state it keeps between calls needs no lock of its own (the future's completion orders the calls).
 */
public final class ResumableLoop {

    private static final Logger log = LoggerFactory.getLogger(ResumableLoop.class);

    /** What the step function asks for after one call. */
    public sealed interface Turn {

        /** The run is over: {@link #finished()} completes. */
        static Turn finish() {
            return Finish.INSTANCE;
        }

        /** Call the step function again, on a new virtual thread, once {@code wakeUp} completed (normally or not). */
        static Turn waitFor(CompletableFuture<?> wakeUp) {
            return new WaitFor(wakeUp);
        }
    }

    private enum Finish implements Turn { INSTANCE }

    private record WaitFor(CompletableFuture<?> wakeUp) implements Turn {
    }

    /** The state machine's step function: runs until the run is over or has to wait. */
    @FunctionalInterface
    public interface Steps {
        Turn advance() throws InterruptedException;
    }

    private final String threadName;
    private final Steps steps;
    private final Consumer<RuntimeException> onCrash;
    private final CompletableFuture<Void> finished = new CompletableFuture<>();

    /**
     * @param threadName the name of every thread it runs on
     * @param onCrash    told when the step function threw; the run is then over
     */
    public ResumableLoop(String threadName, Steps steps, Consumer<RuntimeException> onCrash) {
        this.threadName = threadName;
        this.steps = steps;
        this.onCrash = onCrash;
    }

    /** Calls the step function on a new virtual thread. Called once; afterwards the loop resumes itself. */
    public void start() {
        Thread.ofVirtual().name(threadName).start(this::step);
    }

    /** Completes when the step function finished, threw or was interrupted. */
    public CompletableFuture<Void> finished() {
        return finished;
    }

    private void step() {
        Turn turn = Turn.finish();
        try {
            turn = steps.advance();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            try {
                onCrash.accept(e);
            } catch (RuntimeException second) {
                log.error("{}: recording a crash failed", threadName, second);
            }
        }
        switch (turn) {
            case Finish f -> finished.complete(null);
            case WaitFor w -> w.wakeUp().whenComplete((v, e) -> start());
        }
    }
}
