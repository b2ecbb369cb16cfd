package dev.berth.variables;

import java.util.EnumSet;
import java.util.Set;

import org.springframework.stereotype.Component;

import dev.berth.namespace.NamespaceUsage;

/** A namespace that holds any variable cannot be deleted (Nomad's check). */
@Component
class VariableNamespaceUsage implements NamespaceUsage {

    private final VariableStore store;

    VariableNamespaceUsage(VariableStore store) {
        this.store = store;
    }

    @Override
    public Set<Blocker> blockers(String namespace) {
        return store.list(namespace, "").isEmpty() ? EnumSet.noneOf(Blocker.class) : EnumSet.of(Blocker.VARIABLES);
    }
}
