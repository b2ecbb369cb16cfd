package dev.berth.alloc.task;

import dev.berth.config.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.berth.alloc.fs.AllocDir;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskDevice;
import dev.berth.driver.TaskDriver;
import dev.berth.host.CoreSet;

/**
 * Everything a {@link TaskRunner} works with.
 *
 * @param envBuilder     builds the base environment (built-ins, meta, host, task Env) before the hook envs
 * @param maxKillTimeout {@code berth.client.max-kill-timeout}
 * @param restoredState  the persisted task state when the runner is restored after an agent restart, else null
 * @param restoredLocal  the persisted local state (driver handle, hook done-flags) when restored, else null
 */
public record TaskRunnerContext(AllocationSpec alloc, TaskGroupSpec group, TaskSpec task, AllocDir allocDir, TaskDriver driver,
                                List<TaskHooks.TaskHook> hooks, TaskStateStore store, RestartTracker tracker,
                                TaskCoordinator coordinator, Clock clock, Sleeper sleeper, Duration maxKillTimeout,
                                Function<TaskHookContext, Interpolator> envBuilder, TaskListener listener,
                                TaskState restoredState, dev.berth.alloc.task.TaskLocalState restoredLocal) {

    public TaskRunnerContext {
        hooks = List.copyOf(hooks);
    }

    /** The task's kill timeout, capped by {@code berth.client.max-kill-timeout}. */
    public Duration killTimeout() {
        Duration t = task.killTimeoutDuration();
        return t.compareTo(maxKillTimeout) > 0 ? maxKillTimeout : t;
    }

    /** What the driver gets to start the task: the id {@code <alloc>/<task>}, config, environment, dirs, limits. */
    public TaskConfig taskConfig(Map<String, String> env, List<TaskDevice> devices) {
        return taskConfig(new Interpolator(env, Map.of()), devices);
    }

    /** As {@link #taskConfig(Map, List)}, the task's {@code Config} interpolated (every string, nested) by {@code env}. */
    public TaskConfig taskConfig(Interpolator env, List<TaskDevice> devices) {
        return taskConfig(alloc, task, env, devices);
    }

    /** As {@link #taskConfig(Interpolator, List)} for the alloc and task an update left the runner with. */
    public TaskConfig taskConfig(AllocationSpec alloc, TaskSpec task, Interpolator env, List<TaskDevice> devices) {
        AllocationSpec.AllocatedCpu cpu = alloc.allocatedCpu(task.name());
        // a task that reserved cores asked for no MHz: its CPU is what admission gave (cores × MHz per core)
        int cpuMhz = cpu != null && cpu.cpuShares() > 0 ? (int) cpu.cpuShares() : task.cpu();
        CoreSet cores = cpu == null ? CoreSet.EMPTY : CoreSet.of(cpu.reservedCores());
        return new TaskConfig(alloc.id() + "/" + task.name(), alloc.id(), task.name(), alloc.job().name(), group.name(),
                alloc.namespace(), env.replaceConfig(task.config()), env.env(), allocDir.path(), allocDir.taskDir(task.name()),
                allocDir.stdoutTarget(task.name()), allocDir.stderrTarget(task.name()), cpuMhz, task.memoryMb(),
                task.memoryMaxMb(), devices, cores);
    }

    /** Callbacks from a task runner; must not block. */
    public interface TaskListener {
        void taskStateChanged(String task, TaskState state);

        default void taskStarted(String task) {
        }

        default void taskRestarting(String task) {
        }

        default void taskOomKilled(String task) {
        }

        default void hookTimed(String hook, String phase, long nanos) {
        }
    }
}
