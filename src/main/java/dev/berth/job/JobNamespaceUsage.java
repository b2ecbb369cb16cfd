package dev.berth.job;

import java.util.EnumSet;
import java.util.Set;

import org.springframework.stereotype.Component;

import dev.berth.alloc.AllocManager;
import dev.berth.alloc.AllocView;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.namespace.Namespace;
import dev.berth.namespace.NamespaceUsage;

/**
 * A namespace cannot be deleted while a job in it is not dead, or an allocation in it (placed by the local scheduler or
 * submitted directly) has a client status that is not terminal (Nomad's checks).
 */
@Component
class JobNamespaceUsage implements NamespaceUsage {

    private final JobRegistry registry;
    private final AllocManager allocs;

    JobNamespaceUsage(JobRegistry registry, AllocManager allocs) {
        this.registry = registry;
        this.allocs = allocs;
    }

    @Override
    public Set<Blocker> blockers(String namespace) {
        Set<Blocker> out = EnumSet.noneOf(Blocker.class);
        if (registry.anyJob((j) -> namespace.equals(JobService.ns(j)) && !"dead".equals(j.path("Status").asString()))) {
            out.add(Blocker.JOBS);
        }
        if (allocs.list().stream().anyMatch((v) -> namespace.equals(namespaceOf(v)) && !ClientStatus.terminal(v.record().clientStatus()))) {
            out.add(Blocker.ALLOCATIONS);
        }
        return out;
    }

    private static String namespaceOf(AllocView v) {
        String ns = v.record().spec().namespace();
        return ns == null || ns.isEmpty() ? Namespace.DEFAULT : ns;
    }
}
