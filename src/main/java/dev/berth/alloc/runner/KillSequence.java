package dev.berth.alloc.runner;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.Executors;

import dev.berth.alloc.task.TaskRunner;

/**
 * Nomad's {@code killTasks} order (§5.4): the leader synchronously, then the other main and prestart/poststart tasks
 * concurrently, sidecars last, concurrently. Poststop tasks are left alone. Every wait is bounded by the task's kill.
 */
final class KillSequence {

    private KillSequence() {
    }

    static void kill(Collection<TaskRunner> runners, String reason) throws InterruptedException {
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
}
