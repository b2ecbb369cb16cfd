package dev.berth.alloc;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import dev.berth.alloc.AllocHooks.AllocDestroyHook;
import dev.berth.alloc.AllocHooks.AllocHookContext;
import dev.berth.alloc.AllocHooks.AllocPrerunHook;

/** Builds the alloc dir first (other hooks need it) and removes it on destroy. */
@Component
@Order(0)
class AllocDirHook implements AllocPrerunHook, AllocDestroyHook {

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
