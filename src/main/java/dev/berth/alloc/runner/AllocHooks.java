package dev.berth.alloc.runner;

import dev.berth.alloc.fs.AllocDir;
import dev.berth.alloc.spec.AllocationSpec;

/**
 * The per-phase alloc hook interfaces (Nomad's {@code runner_lifecycle.go}). A hook implements {@link AllocHook} plus the
 * phases it needs; the {@link AllocRunner} calls them in list order and times each call.
 */
public final class AllocHooks {

    private AllocHooks() {
    }

    /** Base of every alloc hook. */
    public interface AllocHook {
        String name();
    }

    /** Before any task runs, only for a non-terminal alloc. The first failure aborts the run and fails every task. */
    public interface AllocPrerunHook extends AllocHook {
        void prerun(AllocHookContext context) throws Exception;
    }

    /** On a non-terminal update (never for a stop); serial; every hook runs and errors are collected. */
    public interface AllocUpdateHook extends AllocHook {
        void update(AllocHookContext context, AllocationSpec alloc) throws Exception;
    }

    /** At the start of killing the tasks. Errors are logged. */
    public interface AllocPreKillHook extends AllocHook {
        void preKill(AllocHookContext context) throws Exception;
    }

    /**
     * After every task runner exited, unless the agent is shutting down. Every hook runs; errors are collected. Must be
     * safe without a prior prerun.
     */
    public interface AllocPostrunHook extends AllocHook {
        void postrun(AllocHookContext context) throws Exception;
    }

    /** On destroy; best effort, every hook runs, errors collected. Must be safe without prerun and idempotent. */
    public interface AllocDestroyHook extends AllocHook {
        void destroy(AllocHookContext context) throws Exception;
    }

    /** On agent shutdown, after the task runners stopped (tasks keep running). */
    public interface AllocShutdownHook extends AllocHook {
        void shutdown(AllocHookContext context) throws Exception;
    }

    /**
     * @param alloc the current allocation spec
     * @param dir   its directory
     */
    public record AllocHookContext(AllocationSpec alloc, AllocDir dir) {
    }
}
