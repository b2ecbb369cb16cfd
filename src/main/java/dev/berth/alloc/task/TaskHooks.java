package dev.berth.alloc.task;

import java.util.Map;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskDevice;
import dev.berth.driver.TaskHandle;

/**
 * The per-phase task hook interfaces (Nomad's {@code task_lifecycle.go}). A hook implements {@link TaskHook} plus any
 * phases it needs. Hooks are Spring beans (ordered with {@code @Order}) or added per runner; they are stateless and get
 * everything through the {@link TaskHookContext}. The runner calls them in list order and times each call.
 */
public final class TaskHooks {

    private TaskHooks() {
    }

    /** Base of every task hook. */
    public interface TaskHook {
        /** Stable name: used in events, metrics and the persisted done-flags. */
        String name();
    }

    /**
     * Runs before every start (also after restarts), never for a terminal alloc. The first failure stops the start: it
     * becomes a start error for the restart policy (a {@link HookFailedException} carries its own event and
     * recoverability; any other exception is recoverable with a {@code Task hook failed} event). A result with
     * {@code done} is persisted whole ({@link HookState}: env and devices) and the hook is skipped on later starts and
     * after an agent restart, while its env and devices still apply.
     */
    public interface TaskPrestartHook extends TaskHook {
        PrestartResult prestart(TaskHookContext context) throws Exception;
    }

    /** After a successful start. Errors are logged only. */
    public interface TaskPoststartHook extends TaskHook {
        void poststart(TaskHookContext context, TaskHandle handle) throws Exception;
    }

    /** Before the task is stopped for a kill or a restart. Errors are logged only. */
    public interface TaskPreKillHook extends TaskHook {
        void preKill(TaskHookContext context) throws Exception;
    }

    /** After each exit of the task (before the restart decision). Errors are logged only. */
    public interface TaskExitedHook extends TaskHook {
        void exited(TaskHookContext context, ExitResult result) throws Exception;
    }

    /** On an alloc update that is not terminal; serialized, concurrent with the run loop. Errors are collected. */
    public interface TaskUpdateHook extends TaskHook {
        void update(TaskHookContext context, AllocationSpec alloc) throws Exception;
    }

    /**
     * After the final exit. The only hook guaranteed to run whenever the run loop ran; every stop hook runs even if one
     * fails (errors are collected with addSuppressed). Must be idempotent.
     */
    public interface TaskStopHook extends TaskHook {
        void stop(TaskHookContext context) throws Exception;
    }

    /** On agent shutdown; the task keeps running. Errors are logged only. */
    public interface TaskShutdownHook extends TaskHook {
        void shutdown(TaskHookContext context) throws Exception;
    }

    /**
     * @param env     environment variables this hook adds (applied after the built-ins, task meta, host env and task Env)
     * @param done    skip this hook on later starts
     * @param devices device nodes and mounts for the driver ({@link dev.berth.driver.TaskConfig#devices()})
     */
    public record PrestartResult(Map<String, String> env, boolean done, java.util.List<TaskDevice> devices) {

        public PrestartResult {
            env = env == null ? Map.of() : Map.copyOf(env);
            devices = devices == null ? java.util.List.of() : java.util.List.copyOf(devices);
        }

        public PrestartResult(Map<String, String> env, boolean done) {
            this(env, done, java.util.List.of());
        }

        public static PrestartResult empty() {
            return new PrestartResult(Map.of(), false);
        }
    }

    /** A hook failure that carries the event to emit and whether the restart policy may retry. */
    public static class HookFailedException extends Exception {

        private final transient TaskEvent event;
        private final boolean recoverable;

        public HookFailedException(String message, TaskEvent event, boolean recoverable) {
            super(message);
            this.event = event;
            this.recoverable = recoverable;
        }

        public TaskEvent event() {
            return event;
        }

        public boolean recoverable() {
            return recoverable;
        }
    }
}
