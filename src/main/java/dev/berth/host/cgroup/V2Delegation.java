package dev.berth.host.cgroup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Readies the cgroup v2 hierarchy for task cgroups: {@code MOUNT/berth-<node>/<alloc>.<task>}. cgroup v2 lets a child
 * use a controller only when every ancestor lists it in {@code cgroup.subtree_control}, and (the "no internal
 * processes" rule) a cgroup other than the real root that enables controllers for its children may hold no process
 * itself. So, in order:
 * <ol>
 *   <li>the controllers Berth wants ({@link #WANTED}) are taken from the mount root's {@code cgroup.controllers}: only
 *       what is delegated there can be enabled; without {@link #REQUIRED} nothing can be enforced;</li>
 *   <li>when the mount root must enable a controller, is not the real root (it has {@code cgroup.type}: a container's
 *       cgroup namespace root) and is the agent's own cgroup, every process in it (the agent and whatever else runs in
 *       its container) first moves into the leaf {@code MOUNT/berth-agent} — what runc's init, systemd's
 *       {@code init.scope} and the kubelet do;</li>
 *   <li>the controllers are enabled in the mount root, then in the node's parent.</li>
 * </ol>
 * Each failure is reported with the file written and the kernel's answer.
 */
final class V2Delegation {

    /** Controllers a task cgroup gets when delegated: {@code cpuset} for reserved cores, the rest for limits. */
    static final List<String> WANTED = List.of("cpuset", "cpu", "memory", "pids");
    /** Without these the exec driver cannot enforce a task's resources. */
    static final List<String> REQUIRED = List.of("cpu", "memory", "pids");
    /** The leaf the agent moves into when its own cgroup must become a parent. */
    static final String AGENT_LEAF = "berth-agent";

    private static final Logger log = LoggerFactory.getLogger(V2Delegation.class);
    private static final int MOVE_ROUNDS = 20;

    private V2Delegation() {
    }

    static CgroupSetup prepare(Path mount, Path parent, Optional<Path> agent) {
        Set<String> available;
        try {
            available = words(Files.readString(mount.resolve("cgroup.controllers")));
        } catch (IOException e) {
            return new CgroupSetup.Unavailable("cannot read " + mount.resolve("cgroup.controllers") + ": " + message(e));
        }
        List<String> missing = REQUIRED.stream().filter(c -> !available.contains(c)).toList();
        if (!missing.isEmpty()) {
            return new CgroupSetup.Unavailable("cgroup v2 controllers " + String.join(", ", missing) + " are not delegated to "
                    + mount + " (its cgroup.controllers: " + String.join(" ", available) + ")");
        }
        Set<String> controllers = new LinkedHashSet<>(WANTED);
        controllers.retainAll(available);
        Path agentNow = agent.orElse(null);
        try {
            if (!missingIn(mount, controllers).isEmpty() && agent.isPresent() && agent.get().equals(mount)
                    && Files.exists(mount.resolve("cgroup.type"))) {
                agentNow = moveProcessesToLeaf(mount);
            }
            enable(mount, controllers);
            mkdir(parent);
            enable(parent, controllers);
        } catch (CgroupUnavailableException e) {
            return new CgroupSetup.Unavailable(e.getMessage());
        }
        return new CgroupSetup.Ready(Set.of(parent), controllers, agentNow);
    }

    /**
     * Makes the node's parent (again: it is removed when empty at an agent stop) with {@code controllers} enabled for
     * its children, after {@link #prepare} readied the root above it.
     */
    static void readyParent(Path parent, Set<String> controllers) throws CgroupUnavailableException {
        mkdir(parent);
        enable(parent, controllers);
    }

    /** Moves every process of {@code cgroup} into its {@link #AGENT_LEAF} child; returns the leaf. */
    private static Path moveProcessesToLeaf(Path cgroup) throws CgroupUnavailableException {
        Path leaf = cgroup.resolve(AGENT_LEAF);
        mkdir(leaf);
        Path target = leaf.resolve("cgroup.procs");
        for (int round = 0; round < MOVE_ROUNDS; round++) {
            List<String> pids = procs(cgroup);
            if (pids.isEmpty()) {
                log.info("The agent's cgroup {} becomes a parent of task cgroups: its processes moved into {} (cgroup v2 lets a "
                        + "cgroup that enables controllers hold no process)", cgroup, leaf);
                return leaf;
            }
            for (String pid : pids) {
                try {
                    Files.writeString(target, pid, StandardCharsets.US_ASCII);
                } catch (FileSystemException refused) {
                    if (Files.exists(Path.of("/proc", pid))) { // else it exited meanwhile ("No such process")
                        throw new CgroupUnavailableException("moving process " + pid + " into " + target + " failed: " + message(refused));
                    }
                } catch (IOException e) {
                    throw new CgroupUnavailableException("moving process " + pid + " into " + target + " failed: " + message(e));
                }
            }
        }
        throw new CgroupUnavailableException("processes keep appearing in " + cgroup.resolve("cgroup.procs") + "; cannot empty it");
    }

    private static void enable(Path dir, Set<String> controllers) throws CgroupUnavailableException {
        List<String> missing = missingIn(dir, controllers);
        if (missing.isEmpty()) {
            return;
        }
        String change = String.join(" ", missing.stream().map(c -> "+" + c).toList());
        Path control = dir.resolve("cgroup.subtree_control");
        try {
            Files.writeString(control, change, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            String why = message(e);
            if (why.contains("busy")) {
                why += " (the cgroup holds processes; cgroup v2 lets a cgroup that enables controllers hold none)";
            }
            throw new CgroupUnavailableException("writing '" + change + "' to " + control + " failed: " + why);
        }
    }

    private static List<String> missingIn(Path dir, Set<String> controllers) throws CgroupUnavailableException {
        Path control = dir.resolve("cgroup.subtree_control");
        try {
            Set<String> enabled = Files.exists(control) ? words(Files.readString(control)) : Set.of();
            return controllers.stream().filter(c -> !enabled.contains(c)).toList();
        } catch (IOException e) {
            throw new CgroupUnavailableException("cannot read " + control + ": " + message(e));
        }
    }

    private static List<String> procs(Path cgroup) throws CgroupUnavailableException {
        try {
            return Files.readAllLines(cgroup.resolve("cgroup.procs")).stream().map(String::strip).filter(l -> !l.isEmpty()).toList();
        } catch (IOException e) {
            throw new CgroupUnavailableException("cannot read " + cgroup.resolve("cgroup.procs") + ": " + message(e));
        }
    }

    private static void mkdir(Path dir) throws CgroupUnavailableException {
        try {
            Files.createDirectory(dir);
        } catch (FileAlreadyExistsException reused) {
            // an agent restart, or the leaf made by an earlier start in this container
        } catch (IOException e) {
            throw new CgroupUnavailableException("cannot create " + dir + ": " + message(e));
        }
    }

    private static Set<String> words(String text) {
        String stripped = text.strip();
        return stripped.isEmpty() ? Set.of() : new LinkedHashSet<>(Arrays.asList(stripped.split("\\s+")));
    }

    // The kernel's answer (strerror) without the path Java repeats in front of it.
    static String message(IOException e) {
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
