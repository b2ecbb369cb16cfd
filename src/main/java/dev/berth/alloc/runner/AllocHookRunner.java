package dev.berth.alloc.runner;

import java.util.List;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.runner.AllocHooks.AllocHook;
import dev.berth.alloc.runner.AllocHooks.AllocHookContext;

/**
 * Calls one alloc's hooks phase by phase, in list order, timing each call: prerun fails fast (the first failure aborts);
 * every other phase runs every hook and collects the failures ({@code addSuppressed}), logged together.
 */
final class AllocHookRunner {

    private static final Logger log = LoggerFactory.getLogger(AllocHookRunner.class);

    interface HookCall<H> {
        void call(H hook) throws Exception;
    }

    private final String allocId;
    private final List<AllocHook> hooks;
    private final AllocRunnerContext.AllocListener listener;
    private final Supplier<AllocHookContext> context;

    AllocHookRunner(String allocId, List<AllocHook> hooks, AllocRunnerContext.AllocListener listener, Supplier<AllocHookContext> context) {
        this.allocId = allocId;
        this.hooks = hooks;
        this.listener = listener;
        this.context = context;
    }

    /**
     * Runs the prerun hooks until one fails.
     *
     * @return null when all succeeded, else Nomad's setup-failure text for the tasks
     */
    String prerun() {
        for (AllocHook hook : hooks) {
            if (hook instanceof AllocHooks.AllocPrerunHook prerun) {
                long t0 = System.nanoTime();
                try {
                    prerun.prerun(context.get());
                } catch (Exception e) {
                    log.warn("alloc prerun failed: alloc={}", allocId, e);
                    return "failed to setup alloc: pre-run hook \"" + hook.name() + "\" failed: " + e.getMessage();
                } finally {
                    listener.hookTimed(hook.name(), "prerun", System.nanoTime() - t0);
                }
            }
        }
        return null;
    }

    /** Runs every hook of a phase, collecting failures (addSuppressed) and logging them together. */
    <H extends AllocHook> void runAll(Class<H> type, String phase, HookCall<H> call) {
        RuntimeException failures = null;
        for (AllocHook hook : hooks) {
            if (!type.isInstance(hook)) {
                continue;
            }
            long t0 = System.nanoTime();
            try {
                call.call(type.cast(hook));
            } catch (Exception e) {
                if (failures == null) {
                    failures = new IllegalStateException(phase + " hooks failed for alloc " + allocId);
                }
                failures.addSuppressed(e);
            } finally {
                listener.hookTimed(hook.name(), phase, System.nanoTime() - t0);
            }
        }
        if (failures != null) {
            log.warn("{} hooks failed: alloc={}", phase, allocId, failures);
        }
    }
}
