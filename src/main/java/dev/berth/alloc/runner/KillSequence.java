package dev.berth.alloc.runner;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.task.TaskRunner;

/**
 * Nomad's {@code killTasks} order: the leader synchronously, then the other main and prestart/poststart tasks
 * concurrently, sidecars last, concurrently. Poststop tasks are left alone. Every wait is bounded by the task's kill.
 * One alloc's kill sequences run one at a time (a sibling kill and a destroy may meet): each sees the tasks the one before
 * it left. Also the agent's shutdown of an alloc's runners (all at once, tasks left running) and the bounded waits around
 * both.
 */
final class KillSequence {

    private static final Logger log = LoggerFactory.getLogger(KillSequence.class);

    private final ReentrantLock serial = new ReentrantLock();

    /**
     * Runs {@code preKill} (the alloc's prekill hooks), then kills {@code runners.get()} in Nomad's order; after any kill
     * sequence already under way.
     */
    void kill(Supplier<? extends Collection<TaskRunner>> runners, Runnable preKill, String reason) throws InterruptedException {
        serial.lockInterruptibly();
        try {
            preKill.run();
            killInOrder(runners.get(), reason);
        } finally {
            serial.unlock();
        }
    }

    private static void killInOrder(Collection<TaskRunner> runners, String reason) throws InterruptedException {
        for (TaskRunner tr : runners) {
            if (tr.task().isLeader() && !tr.task().isPoststop()) {
                tr.kill(reason);
            }
        }
        concurrently(runners.stream().filter(tr -> !tr.task().isLeader() && !tr.task().sidecar() && !tr.task().isPoststop()).toList(),
                reason);
        concurrently(runners.stream().filter(tr -> !tr.task().isLeader() && tr.task().sidecar() && !tr.task().isPoststop()).toList(),
                reason);
    }

    private static void concurrently(List<TaskRunner> runners, String reason) {
        if (runners.isEmpty()) {
            return;
        }
        try (var exec = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("berth-kill-", 0).factory())) {
            for (TaskRunner tr : runners) {
                exec.submit(() -> {
                    tr.kill(reason);
                    return null;
                });
            }
        }
    }

    /** Ends every runner (their tasks keep running), concurrently; each wait bounded by {@code wait}. */
    static void shutdown(Collection<TaskRunner> runners, Duration wait) {
        try (var exec = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("berth-shutdown-", 0).factory())) {
            for (TaskRunner tr : runners) {
                exec.submit(() -> {
                    tr.shutdown(wait);
                    return null;
                });
            }
        }
    }

    /** Waits for {@code f} at most {@code wait} (logged when it gives up). */
    static void await(CompletableFuture<?> f, Duration wait) throws InterruptedException {
        try {
            f.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("gave up waiting after {}", wait);
        }
    }
}
