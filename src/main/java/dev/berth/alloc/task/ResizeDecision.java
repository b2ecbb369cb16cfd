package dev.berth.alloc.task;

import dev.berth.alloc.spec.TaskSize;
import dev.berth.alloc.spec.TaskSpec;

/**
 * What an update that changes a running task's size does to it: nothing (the size is the same), an in-place resize of
 * its cgroup (the process keeps running), or Nomad's destructive update (the task is killed and started again with the
 * new size) with the reason. {@link #decide} looks at the specs alone; a driver or kernel that refuses the write turns an
 * {@link InPlace} into a {@link Replace} through {@link InPlace#refused}.
 */
public sealed interface ResizeDecision {

    /** The size the update leaves the task with. */
    TaskSize to();

    /** The task's size does not change. */
    record Unchanged(TaskSize to) implements ResizeDecision {
    }

    /** Write the new size into the running task's cgroup (or container); a {@code Resized} event records it. */
    record InPlace(TaskSize from, TaskSize to) implements ResizeDecision {

        /** The driver or the kernel refused the new size: the task is replaced instead, saying why. */
        public Replace refused(String why) {
            return new Replace(from, to, why);
        }
    }

    /** Kill the task and start it again with the new size; {@code reason} goes into its {@code Restart Signaled} event. */
    record Replace(TaskSize from, TaskSize to, String reason) implements ResizeDecision {
    }

    /** Why a task that opted out is replaced. */
    String OPTED_OUT = "the task opts out of in-place resize (meta " + TaskSize.META_KEY + " = " + TaskSize.RESTART + ")";

    /**
     * The decision for a task running as {@code running} when the update asks for {@code next}: unchanged when the sizes are
     * equal; replaced when the task opts out ({@link TaskSize#optsOut}) or its number of reserved cores changes (a task's
     * reserved cores are chosen at admission and stay); else resized in place.
     */
    static ResizeDecision decide(TaskSpec running, TaskSpec next) {
        TaskSize from = TaskSize.of(running);
        TaskSize to = TaskSize.of(next);
        if (from.equals(to)) {
            return new Unchanged(to);
        }
        if (TaskSize.optsOut(next)) {
            return new Replace(from, to, OPTED_OUT);
        }
        if (from.cores() != to.cores()) {
            return new Replace(from, to, "its reserved cores change (" + from.cores() + " → " + to.cores()
                    + "): reserved cores are not resized in place");
        }
        return new InPlace(from, to);
    }
}
