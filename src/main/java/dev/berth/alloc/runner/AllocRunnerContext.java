package dev.berth.alloc.runner;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.store.AllocStateStore;
import dev.berth.alloc.task.Interpolator;
import dev.berth.alloc.task.RestartTracker;
import dev.berth.config.Sleeper;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks;
import dev.berth.alloc.task.TaskState;
import dev.berth.driver.TaskDriver;

/**
 * The collaborators every {@link AllocRunner} shares.
 *
 * @param allocsRoot      {@code <data-dir>/alloc}
 * @param drivers         driver by name (validated before a runner exists)
 * @param trackers        restart tracker for an alloc's task, with persisted counters (or null)
 * @param envBuilder      base task environment with the node's keys (interpolates config, env, services)
 * @param listener        status/metrics callbacks
 */
public record AllocRunnerContext(Path allocsRoot, AllocStateStore store, Function<String, TaskDriver> drivers,
                                 List<AllocHooks.AllocHook> allocHooks, List<TaskHooks.TaskHook> taskHooks, Clock clock,
                                 Sleeper sleeper, Duration maxKillTimeout, TrackerFactory trackers,
                                 Function<TaskHookContext, Interpolator> envBuilder, AllocListener listener) {

    public AllocRunnerContext {
        allocHooks = List.copyOf(allocHooks);
        taskHooks = List.copyOf(taskHooks);
    }

    @FunctionalInterface
    public interface TrackerFactory {
        RestartTracker create(AllocationSpec alloc, TaskSpec task, RestartTracker.Counters restored);
    }

    /** Callbacks from alloc runners; must not block. */
    public interface AllocListener {
        default void clientStatusChanged(String allocId, String oldStatus, String newStatus) {
        }

        default void taskStateChanged(String allocId, String task, TaskState oldState, TaskState newState) {
        }

        default void taskStarted(String allocId, String task) {
        }

        default void taskRestarting(String allocId, String task) {
        }

        default void taskOomKilled(String allocId, String task) {
        }

        default void hookTimed(String hook, String phase, long nanos) {
        }

        /** The alloc's tasks are all done (terminal): its resources can be given back. */
        default void allocFinished(String allocId) {
        }

        default void allocDestroyed(String allocId) {
        }
    }
}
