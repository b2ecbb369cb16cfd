package dev.berth.device;

import java.util.Collection;
import java.util.Map;

/**
 * Port: which task a host process belongs to. Implemented by the allocation side (it knows each task's cgroup and root
 * process); {@link DeviceUsage} uses it to attribute device processes to tasks.
 */
public interface ProcessOwners {

    /** Owns nothing: every device process counts as foreign. */
    ProcessOwners NONE = (pids, allocIds) -> Map.of();

    /**
     * @param pids     host pids a plugin saw on devices
     * @param allocIds the allocations to look in (those holding the devices)
     * @return pid → the task of one of {@code allocIds} whose cgroup or process tree holds it; other pids are absent
     */
    Map<Long, TaskRef> owners(Collection<Long> pids, Collection<String> allocIds);
}
