package dev.berth.host.cgroup;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/** Whether per-task cgroups can be made on this host, found once the agent has readied its cgroup parent. */
public sealed interface CgroupSetup {

    /**
     * Task cgroups can be made.
     *
     * @param parents     the node's parent directory in each hierarchy (one on v2)
     * @param controllers the controllers a task cgroup gets, in the order they are enabled (v2: enabled in the parent's {@code cgroup.subtree_control};
     *                    v1: the mounted hierarchies Berth uses)
     * @param agent       the agent's own cgroup directory as found ({@code null} when it cannot be seen)
     */
    record Ready(Set<Path> parents, Set<String> controllers, Path agent) implements CgroupSetup {
        public Ready {
            parents = Collections.unmodifiableSet(new LinkedHashSet<>(parents));
            controllers = Collections.unmodifiableSet(new LinkedHashSet<>(controllers));
        }
    }

    /** Task cgroups cannot be made; {@code reason} says which step failed and why, for the log and driver health. */
    record Unavailable(String reason) implements CgroupSetup {
    }
}
