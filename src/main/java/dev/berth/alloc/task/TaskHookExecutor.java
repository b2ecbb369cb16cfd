package dev.berth.alloc.task;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.task.TaskHooks.HookFailedException;
import dev.berth.alloc.task.TaskHooks.PrestartResult;
import dev.berth.alloc.task.TaskHooks.TaskExitedHook;
import dev.berth.alloc.task.TaskHooks.TaskHook;
import dev.berth.alloc.task.TaskHooks.TaskPoststartHook;
import dev.berth.alloc.task.TaskHooks.TaskPreKillHook;
import dev.berth.alloc.task.TaskHooks.TaskPrestartHook;
import dev.berth.alloc.task.TaskHooks.TaskShutdownHook;
import dev.berth.alloc.task.TaskHooks.TaskStopHook;
import dev.berth.alloc.task.TaskHooks.TaskUpdateHook;
import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskDevice;
import dev.berth.driver.TaskHandle;

/**
 * Calls a task's hooks phase by phase in list order with Nomad's error semantics: prestart stops at the first failure;
 * stop runs every hook and collects failures (addSuppressed); the other phases log failures. Every call is timed.
 */
final class TaskHookExecutor {

    private static final Logger log = LoggerFactory.getLogger(TaskHookExecutor.class);

    private final List<TaskHook> hooks;
    private final TaskRunnerContext.TaskListener listener;
    private final Clock clock;
    private final String allocId;
    private final String task;

    TaskHookExecutor(List<TaskHook> hooks, TaskRunnerContext.TaskListener listener, Clock clock, String allocId, String task) {
        this.hooks = hooks;
        this.listener = listener;
        this.clock = clock;
        this.allocId = allocId;
        this.task = task;
    }

    /**
     * Runs the prestart hooks not yet done; returns {@code base} plus every hook's env. A hook reporting done is recorded in
     * {@code states} with its env and devices; a hook already done there is skipped, and its recorded env and devices
     * apply again (Nomad's done hooks keep their env). The hooks' device nodes/mounts are added to {@code devices}.
     */
    Map<String, String> prestart(TaskHookContext context, Map<String, String> base, Map<String, HookState> states,
                                 List<TaskDevice> devices) throws HookFailedException {
        Map<String, String> env = new LinkedHashMap<>(base);
        for (TaskHook hook : hooks) {
            if (!(hook instanceof TaskPrestartHook prestart)) {
                continue;
            }
            HookState done = states.get(hook.name());
            if (done != null && done.done()) {
                env.putAll(done.env());
                devices.addAll(done.devices());
                continue;
            }
            long t0 = System.nanoTime();
            try {
                PrestartResult result = prestart.prestart(context);
                env.putAll(result.env());
                devices.addAll(result.devices());
                if (result.done()) {
                    states.put(hook.name(), new HookState(true, result.env(), result.devices()));
                }
            } catch (HookFailedException e) {
                throw e;
            } catch (Exception e) {
                throw new HookFailedException("prestart hook \"" + hook.name() + "\" failed: " + e.getMessage(),
                        TaskEvent.hookFailed(clock.instant(), hook.name(), e.getMessage()), true);
            } finally {
                listener.hookTimed(hook.name(), "prestart", System.nanoTime() - t0);
            }
        }
        return env;
    }

    void poststart(TaskHookContext context, TaskHandle handle) {
        for (TaskHook hook : hooks) {
            if (hook instanceof TaskPoststartHook h) {
                timed(hook, "poststart", () -> h.poststart(context, handle), false);
            }
        }
    }

    void preKill(TaskHookContext context) {
        for (TaskHook hook : hooks) {
            if (hook instanceof TaskPreKillHook h) {
                timed(hook, "prekill", () -> h.preKill(context), false);
            }
        }
    }

    void exited(TaskHookContext context, ExitResult result) {
        for (TaskHook hook : hooks) {
            if (hook instanceof TaskExitedHook h) {
                timed(hook, "exited", () -> h.exited(context, result), false);
            }
        }
    }

    void update(TaskHookContext context, AllocationSpec alloc) {
        for (TaskHook hook : hooks) {
            if (hook instanceof TaskUpdateHook h) {
                timed(hook, "update", () -> h.update(context, alloc), false);
            }
        }
    }

    /** Every stop hook runs; failures are collected and logged together. */
    void stop(TaskHookContext context) {
        RuntimeException failures = null;
        for (TaskHook hook : hooks) {
            if (hook instanceof TaskStopHook h) {
                try {
                    timed(hook, "stop", () -> h.stop(context), true);
                } catch (RuntimeException e) {
                    if (failures == null) {
                        failures = new IllegalStateException("stop hooks failed");
                    }
                    failures.addSuppressed(e);
                }
            }
        }
        if (failures != null) {
            log.warn("task stop hooks failed: alloc={} task={}", allocId, task, failures);
        }
    }

    void shutdown(TaskHookContext context) {
        for (TaskHook hook : hooks) {
            if (hook instanceof TaskShutdownHook h) {
                timed(hook, "shutdown", () -> h.shutdown(context), false);
            }
        }
    }

    private interface HookCall {
        void call() throws Exception;
    }

    private void timed(TaskHook hook, String phase, HookCall call, boolean rethrow) {
        long t0 = System.nanoTime();
        try {
            call.call();
        } catch (Exception e) {
            if (rethrow) {
                throw new IllegalStateException(phase + " hook \"" + hook.name() + "\" failed: " + e.getMessage(), e);
            }
            log.warn("{} hook failed: alloc={} task={} hook={}", phase, allocId, task, hook.name(), e);
        } finally {
            listener.hookTimed(hook.name(), phase, System.nanoTime() - t0);
        }
    }
}
