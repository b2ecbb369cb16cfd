package dev.berth.host.cgroup;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.config.NodeIdentity;
import dev.berth.host.CoreSet;

/**
 * Creates per-task cgroups under a parent named after the node, {@code berth-<nodeShortId>}, so two agents on one
 * host never share (or clean up) each other's cgroups. v1: one directory in each of the memory, cpu, cpuacct, pids and
 * cpuset hierarchies; v2: one directory in the unified hierarchy with those controllers enabled.
 *
 * <p>Cores: a task that reserved cores runs on them alone ({@code cpuset.cpus}); every other task runs on the
 * {@linkplain CpuPartition#shared() shared} cores, rewritten in all of them whenever the reservations change
 * ({@link #applyPartition}).
 *
 * <p>When no cgroup can be made (no mount, not root, read-only cgroupfs) {@link #create} says so once in the log and
 * returns empty: callers then observe the task through its /proc process tree.
 */
public class CgroupManager {

    private static final Logger log = LoggerFactory.getLogger(CgroupManager.class);

    /** Sleeps for real (restoring the interrupt flag); the backoff between kill/rmdir attempts. */
    public static final Consumer<Duration> REAL_SLEEPER = duration -> {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    };

    private final CgroupMounts mounts;
    private final String parent;
    private final Consumer<Duration> sleeper;
    private final Optional<AgentCgroup> agent;
    /** v2: where the node's parent is made, the agent's cgroup namespace root (see {@link AgentCgroup}); null when unknown. */
    private final Path v2Base;
    private final AtomicBoolean unavailableLogged = new AtomicBoolean();
    private final Object setupLock = new Object();
    /** Guarded by {@link #setupLock}; once ready it stays ready. */
    private CgroupSetup setup;
    private final CoreAssignments cores;

    public CgroupManager(CgroupMounts mounts, NodeIdentity node, Consumer<Duration> sleeper) {
        this(mounts, node, sleeper, Optional.empty());
    }

    /** @param agent where the agent sits in the v2 hierarchy ({@link AgentCgroup#locate}), empty when unknown */
    public CgroupManager(CgroupMounts mounts, NodeIdentity node, Consumer<Duration> sleeper, Optional<AgentCgroup> agent) {
        this.mounts = mounts;
        this.parent = "berth-" + node.shortId();
        this.sleeper = sleeper;
        this.agent = agent;
        this.v2Base = agent.map(AgentCgroup::namespaceRoot)
                .orElse(mounts.v2NamespaceDepth() == 0 ? mounts.v2Root() : null);
        this.cores = new CoreAssignments(mounts.version(), mounts.v1().get("cpuset"));
    }

    public CgroupVersion version() {
        return mounts.version();
    }

    /** The per-node parent directory name, {@code berth-<nodeShortId>}. */
    public String parentName() {
        return parent;
    }

    /** The mount point of the hierarchy task cgroups are made in (v2's, or v1's memory hierarchy); null without cgroups. */
    public Path mountPoint() {
        return switch (version()) {
            case V2 -> mounts.v2Root();
            case V1 -> mounts.v1().get("memory");
            case NONE -> null;
        };
    }

    /**
     * The directory the node's parent is made in: v2, the agent's cgroup namespace root (the mount point on a host);
     * v1, the memory hierarchy's mount point. Null without cgroups.
     */
    public Path parentBase() {
        return switch (version()) {
            case V2 -> v2Base;
            case V1 -> mounts.v1().get("memory");
            case NONE -> null;
        };
    }

    /**
     * Readies the node's parent cgroup on first use (on v2 this may move the agent into a leaf cgroup of its own, see
     * {@link V2Delegation}) and says whether task cgroups can be made. A ready setup is kept; an unavailable one is
     * tried again at the next call, so a fixed host (a controller delegated later) recovers without a restart.
     */
    public CgroupSetup setup() {
        synchronized (setupLock) {
            if (setup instanceof CgroupSetup.Ready) {
                return setup;
            }
            CgroupSetup found = switch (version()) {
                case NONE -> new CgroupSetup.Unavailable("no cgroup v1 memory or cgroup2 mount in /proc/self/mountinfo");
                case V1 -> v1Setup();
                case V2 -> v2Base == null
                        ? new CgroupSetup.Unavailable("the agent's cgroup namespace root is not found in " + mounts.v2Root()
                                + " (mounted from " + mounts.v2NamespaceDepth() + " levels above it)")
                        : V2Delegation.prepare(v2Base, v2Base.resolve(parent), agent.map(AgentCgroup::own));
            };
            if (found instanceof CgroupSetup.Ready ready) {
                log.info("Task cgroups (cgroup {}) go under {} with controllers {}; the agent's own cgroup: {}", version(),
                        ready.parents(), ready.controllers(), ready.agent() == null ? "not visible" : ready.agent());
            } else if (found instanceof CgroupSetup.Unavailable(String reason)
                    && !(setup instanceof CgroupSetup.Unavailable(String before) && before.equals(reason))) {
                log.warn("Task cgroups unavailable: {}. exec reports unhealthy; raw_exec tasks run without a cgroup (stats from "
                        + "their /proc process tree, no pressure or OOM figures)", reason);
            }
            setup = found;
            return found;
        }
    }

    private CgroupSetup v1Setup() {
        Set<Path> parents = new LinkedHashSet<>();
        Set<String> controllers = new LinkedHashSet<>();
        for (String controller : CgroupMounts.V1_CONTROLLERS) {
            Path mount = mounts.v1().get(controller);
            if (mount != null) {
                controllers.add(controller);
                parents.add(mount.resolve(parent));
            }
        }
        for (Path dir : parents) {
            try {
                mkdir(dir);
            } catch (IOException e) {
                return new CgroupSetup.Unavailable("cannot create " + dir + ": " + V2Delegation.message(e));
            }
        }
        Path cpuset = mounts.v1().get("cpuset");
        if (cpuset != null) {
            try {
                CpusetFiles.inheritV1(cpuset, cpuset.resolve(parent));
            } catch (IOException e) {
                return new CgroupSetup.Unavailable("cannot give " + cpuset.resolve(parent) + " its cpuset: " + V2Delegation.message(e));
            }
        }
        return new CgroupSetup.Ready(parents, controllers, null);
    }

    /**
     * Creates (or re-uses, after an agent restart) the task's cgroup and writes its limits. Call it before the task
     * runs, then {@link TaskCgroup#addProcess} its first process before that process execs the workload.
     *
     * @return the cgroup, or empty when cgroups are unavailable here (logged once)
     */
    public Optional<TaskCgroup> create(String allocId, String taskName, CgroupLimits limits) {
        try {
            return Optional.of(make(allocId, taskName, limits, CoreSet.EMPTY));
        } catch (CgroupUnavailableException e) {
            if (unavailableLogged.compareAndSet(false, true)) {
                log.warn("Task cgroup not created ({}); the task's stats come from its /proc process tree", e.getMessage());
            } else {
                log.debug("Task cgroup not created: {}", e.getMessage());
            }
            return Optional.empty();
        }
    }

    /**
     * Like {@link #create} for a caller that cannot run the task without its cgroup (exec).
     *
     * @throws CgroupUnavailableException with the step that failed and the kernel's answer
     */
    public TaskCgroup make(String allocId, String taskName, CgroupLimits limits) throws CgroupUnavailableException {
        return make(allocId, taskName, limits, CoreSet.EMPTY);
    }

    /**
     * As {@link #make(String, String, CgroupLimits)}, the task on {@code cores} alone (its reserved cores), or on the
     * shared cores when {@code cores} is empty.
     *
     * @throws CgroupUnavailableException also when cores are reserved and the cpuset controller is not available
     */
    public TaskCgroup make(String allocId, String taskName, CgroupLimits limits, CoreSet cores) throws CgroupUnavailableException {
        Set<String> controllers = switch (setup()) {
            case CgroupSetup.Ready ready -> ready.controllers();
            case CgroupSetup.Unavailable(String reason) -> throw new CgroupUnavailableException(reason);
        };
        if (version() == CgroupVersion.V2) {
            V2Delegation.readyParent(v2Base.resolve(parent), controllers);
        }
        TaskCgroup cgroup = handle(v2Base, parent + "/" + sanitize(allocId) + "." + sanitize(taskName));
        String step = "create " + cgroup.name();
        try {
            if (version() == CgroupVersion.V1) { // the parents may have gone since the setup (removed when empty at a stop)
                for (Path dir : cgroup.dirs().values()) {
                    mkdir(dir.getParent());
                }
            }
            for (Path dir : cgroup.dirs().values()) {
                mkdir(dir);
            }
            step = "write the limits of " + cgroup.name();
            LimitFiles.write(cgroup, limits);
            step = "put " + cgroup.name() + " on its cores";
            this.cores.place(cgroup, cores);
            return cgroup;
        } catch (IOException | RuntimeException | CgroupUnavailableException e) {
            try {
                cgroup.remove();
            } catch (IOException | RuntimeException ignored) {
                // best effort: a half-made cgroup with no processes in it
            }
            if (e instanceof CgroupUnavailableException unavailable) {
                throw unavailable;
            }
            String why = e instanceof IOException io ? V2Delegation.message(io) : e.toString();
            String file = e instanceof FileSystemException fs && fs.getFile() != null ? " (" + fs.getFile() + ")" : "";
            throw new CgroupUnavailableException("cannot " + step + file + ": " + why);
        }
    }

    /**
     * Moves every task cgroup of this node to its cores under {@code next}: a task that holds a reservation onto its
     * cores, every other one onto the shared cores. A cgroup the kernel refuses is logged and left as it was.
     */
    public void applyPartition(CpuPartition next) {
        Path parentDir = switch (version()) {
            case V1 -> mounts.v1().containsKey("cpuset") ? mounts.v1().get("cpuset").resolve(parent) : null;
            case V2 -> v2Base == null ? null : v2Base.resolve(parent);
            case NONE -> null;
        };
        cores.apply(next, parentDir, r -> sanitize(r.allocId()) + "." + sanitize(r.taskName()));
    }

    /**
     * Removes the node's parent directory in every hierarchy if no task cgroup is left in it (agent teardown, tests).
     * A parent that still holds task cgroups is left alone: {@code rmdir} of a non-empty cgroup fails.
     */
    public void removeParentIfEmpty() {
        List<Path> parents = new ArrayList<>();
        if (version() == CgroupVersion.V2 && v2Base != null) {
            parents.add(v2Base.resolve(parent));
        } else if (version() == CgroupVersion.V1) {
            for (Path mount : new LinkedHashSet<>(mounts.v1().values())) {
                parents.add(mount.resolve(parent));
            }
        }
        for (Path dir : parents) {
            try {
                Files.deleteIfExists(dir);
            } catch (IOException stillUsed) {
                log.debug("Keeping {}: {}", dir, stillUsed.toString());
            }
        }
    }

    /** The handle for an existing cgroup by its {@link TaskCgroup#name()} (from a persisted driver state). */
    public Optional<TaskCgroup> find(String name) {
        if (name == null || name.isBlank() || version() == CgroupVersion.NONE || !name.startsWith(parent + "/")
                || version() == CgroupVersion.V2 && v2Base == null) {
            return Optional.empty();
        }
        TaskCgroup cgroup = handle(v2Base, name);
        return Files.isDirectory(cgroup.dirs().values().iterator().next()) ? Optional.of(cgroup) : Optional.empty();
    }

    /**
     * The directories of a cgroup Berth does not own (a docker container's, e.g. {@code docker/<id>}), keyed like
     * {@link TaskCgroup#dirs()}, for <em>reading</em> only: Berth never writes limits to it, kills or removes it.
     *
     * @param name the path {@code /proc/<pid>/cgroup} shows: relative to each v1 hierarchy root, or on v2 to the agent's
     *             cgroup namespace root (a leading {@code /} is ignored)
     * @return empty when no cgroups are mounted, the name is blank or climbs out of the mount, or the cgroup is gone
     */
    public Optional<Map<String, Path>> foreignDirs(String name) {
        if (name == null || version() == CgroupVersion.NONE) {
            return Optional.empty();
        }
        String relative = name.startsWith("/") ? name.substring(1) : name;
        if (relative.isBlank()) {
            return Optional.empty();
        }
        Map<String, Path> dirs;
        if (version() == CgroupVersion.V2) {
            // A path from /proc/<pid>/cgroup is relative to the agent's cgroup namespace root, and starts with ".."
            // steps for a cgroup outside that namespace (a container next to the agent's, seen through the host tree).
            Path base = v2Base != null ? v2Base : mounts.v2Root();
            Path dir = base.resolve(relative).normalize();
            if (!dir.startsWith(mounts.v2Root())) {
                return Optional.empty();
            }
            dirs = Map.of(TaskCgroup.UNIFIED, dir);
        } else {
            if (java.util.Arrays.asList(relative.split("/")).contains("..")) {
                return Optional.empty();
            }
            dirs = handle(mounts.v2Root(), relative).dirs();
        }
        return !dirs.isEmpty() && Files.isDirectory(dirs.values().iterator().next()) ? Optional.of(dirs) : Optional.empty();
    }

    // v2Root: the directory a v2 name is relative to (the parent's base for our cgroups, the mount for foreign ones)
    private TaskCgroup handle(Path v2Root, String name) {
        Map<String, Path> dirs = new LinkedHashMap<>();
        if (version() == CgroupVersion.V2) {
            dirs.put(TaskCgroup.UNIFIED, v2Root.resolve(name));
        } else {
            for (String controller : CgroupMounts.V1_CONTROLLERS) {
                Path mount = mounts.v1().get(controller);
                if (mount != null) {
                    dirs.put(controller, mount.resolve(name));
                }
            }
        }
        return new TaskCgroup(version(), name, dirs, sleeper);
    }

    private static void mkdir(Path dir) throws IOException {
        try {
            Files.createDirectory(dir);
        } catch (FileAlreadyExistsException reused) {
            // the agent restarted, or another task of this node already made the parent
        }
    }

    // Names come from the API; never let one climb out of the parent or make nested directories.
    static String sanitize(String part) {
        String cleaned = part.replaceAll("[^A-Za-z0-9_.\\-]", "_");
        return cleaned.isEmpty() || cleaned.chars().allMatch(c -> c == '.') ? "_" + cleaned : cleaned;
    }
}
