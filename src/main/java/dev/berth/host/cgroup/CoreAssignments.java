package dev.berth.host.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.host.CoreSet;

/**
 * Keeps every task cgroup of the node on its cores: a task that reserved cores on them alone, every other one on the
 * {@linkplain CpuPartition#shared() shared} cores (Nomad's reserve and share partitions). One lock orders a new task's
 * placement against a change of the partition, so no task keeps a stale set.
 */
final class CoreAssignments {

    private static final Logger log = LoggerFactory.getLogger(CoreAssignments.class);

    private final CgroupVersion version;
    /** v1: the cpuset hierarchy's mount point (null when it is not mounted). */
    private final Path v1Cpuset;
    /** Guarded by {@code this}: which cores tasks may use, null until the first {@link #apply}. */
    private CpuPartition partition;

    CoreAssignments(CgroupVersion version, Path v1Cpuset) {
        this.version = version;
        this.v1Cpuset = v1Cpuset;
    }

    /**
     * Puts a new task cgroup on {@code reserved}, or on the shared cores when it reserved none (v1, before any
     * partition is known: on its parent's cores; v2: left as the parent's).
     *
     * @throws CgroupUnavailableException when cores are reserved and the cgroup has no cpuset controller
     */
    synchronized void place(TaskCgroup cgroup, CoreSet reserved) throws IOException, CgroupUnavailableException {
        Path dir = cgroup.dir(version == CgroupVersion.V1 ? "cpuset" : TaskCgroup.UNIFIED);
        if (dir == null || !Files.exists(dir.resolve(CpusetFiles.CPUS))) {
            if (!reserved.isEmpty()) {
                throw new CgroupUnavailableException("reserved cores " + reserved + " need the cpuset controller, which is not "
                        + (version == CgroupVersion.V1 ? "mounted" : "enabled for " + cgroup.dir(TaskCgroup.UNIFIED)));
            }
            return;
        }
        if (version == CgroupVersion.V1) {
            CpusetFiles.inheritV1(v1Cpuset, dir.getParent());
        }
        CoreSet cores = !reserved.isEmpty() ? reserved : partition == null ? CoreSet.EMPTY : partition.shared();
        if (cores.isEmpty() && version == CgroupVersion.V1) {
            cores = CpusetFiles.read(dir.getParent());
        }
        if (!cores.isEmpty()) {
            CpusetFiles.writeTask(version, dir, cores);
        }
    }

    /**
     * Takes {@code next} as the node's partition and moves every task cgroup in {@code parentDir} (the node's parent in
     * the cpuset hierarchy; null when there is none) to its cores. A cgroup the kernel refuses is logged and left.
     *
     * @param nameOf the directory name of a reservation's task cgroup
     */
    synchronized void apply(CpuPartition next, Path parentDir, Function<CpuPartition.Reservation, String> nameOf) {
        partition = next;
        if (parentDir == null || !Files.isDirectory(parentDir)) {
            return;
        }
        Map<String, CoreSet> reserved = new LinkedHashMap<>();
        next.reservations().forEach(r -> reserved.put(nameOf.apply(r), r.cores()));
        try (var children = Files.list(parentDir)) {
            for (Path child : (Iterable<Path>) children::iterator) {
                if (!Files.isDirectory(child) || !Files.exists(child.resolve(CpusetFiles.CPUS))) {
                    continue;
                }
                CoreSet cores = reserved.getOrDefault(child.getFileName().toString(), next.shared());
                if (cores.isEmpty()) {
                    continue; // no reservable core known: the cgroup keeps its parent's
                }
                try {
                    if (!CpusetFiles.read(child).equals(cores)) {
                        CpusetFiles.writeTask(version, child, cores);
                    }
                } catch (IOException e) {
                    log.warn("Cannot move task cgroup {} to cores {}: {}", child, cores, V2Delegation.message(e));
                }
            }
        } catch (IOException e) {
            log.warn("Cannot list the task cgroups in {}: {}", parentDir, V2Delegation.message(e));
        }
    }
}
