package dev.berth.variables;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import org.springframework.stereotype.Component;

import dev.berth.events.Change;
import dev.berth.events.Indexed;
import dev.berth.variables.VariableException.Kind;

/**
 * {@link WorkloadVariables} over the {@link VariableService}: the policy first, then the read. Locks are left out of
 * what a workload sees, as Nomad shows them only to management tokens.
 */
@Component
class WorkloadVariableReader implements WorkloadVariables {

    private final VariableService variables;

    WorkloadVariableReader(VariableService variables) {
        this.variables = variables;
    }

    @Override
    public Indexed<Optional<Variable>> read(WorkloadIdentity who, String path) {
        if (!WorkloadVariablePolicy.allows(who, who.namespace(), path)) {
            throw new VariableException(Kind.PERMISSION_DENIED, "Permission denied");
        }
        Indexed<Optional<Variable>> read = variables.read(who.namespace(), path);
        return new Indexed<>(read.value().map(v -> new Variable(v.meta().withLock(null), v.items())), read.index());
    }

    @Override
    public Indexed<List<VariableMeta>> list(WorkloadIdentity who, String prefix) {
        Indexed<VariableService.Page> all = variables.list(who.namespace(), prefix, "", 0, false);
        List<VariableMeta> readable = all.value().variables().stream()
                .filter(meta -> WorkloadVariablePolicy.allows(who, meta.namespace(), meta.path()))
                .map(meta -> meta.withLock(null)).toList();
        return new Indexed<>(readable, all.index());
    }

    @Override
    public Predicate<Change> changes(WorkloadIdentity who) {
        Predicate<Change> inNamespace = VariableService.watch(who.namespace(), null);
        return inNamespace.and(c -> WorkloadVariablePolicy.allows(who, c.namespace(), c.key()));
    }
}
