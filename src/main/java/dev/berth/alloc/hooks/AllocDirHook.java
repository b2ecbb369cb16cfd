package dev.berth.alloc.hooks;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import dev.berth.alloc.runner.AllocHooks.AllocDestroyHook;
import dev.berth.alloc.runner.AllocHooks.AllocHookContext;
import dev.berth.alloc.runner.AllocHooks.AllocPrerunHook;

/** Builds the alloc dir first (other hooks need it) and removes it on destroy. */
@Component
@Order(0)
public class AllocDirHook implements AllocPrerunHook, AllocDestroyHook {

    @Override
    public String name() {
        return "alloc_dir";
    }

    @Override
    public void prerun(AllocHookContext context) {
        context.dir().build();
    }

    @Override
    public void destroy(AllocHookContext context) throws Exception {
        context.dir().destroy();
    }
}
