package dev.berth.host.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where the agent itself sits in the cgroup v2 hierarchy it sees. {@code /proc/self/cgroup}'s {@code 0::PATH} is
 * relative to the agent's cgroup namespace root; the mount's depth ({@link CgroupMounts#v2NamespaceDepth()}) says
 * where that root lies under the mount point:
 * <ul>
 *   <li>depth 0 (a host, a systemd service, a container that mounted its own cgroup2): {@code mount/PATH};</li>
 *   <li>depth n (a container in its own cgroup namespace with the host's {@code /sys/fs/cgroup} mounted in, the Helm
 *       chart's shape): the namespace root is one of the directories n levels below the mount, whose names the kernel
 *       does not show; it is the one whose {@code PATH} lists the agent's pid in {@code cgroup.procs}.</li>
 * </ul>
 * Empty when the agent's cgroup cannot be found in the mount (not v2, or the pid is in none of the candidates).
 *
 * <p>The namespace root matters because task cgroups must go under it: with {@code nsdelegate} (how systemd mounts
 * cgroup2) the kernel refuses to move a process of a cgroup namespace into a cgroup outside that namespace's root, even
 * when the host's tree is mounted in.
 *
 * @param namespaceRoot the agent's cgroup namespace root as a directory of the mount (the mount point itself on a host)
 * @param own           the agent's own cgroup directory
 */
public record AgentCgroup(Path namespaceRoot, Path own) {

    /**
     * @param procSelfCgroup the lines of {@code /proc/self/cgroup}
     * @param pid            the agent's pid, to recognise its cgroup when the namespace root's name is hidden
     */
    public static Optional<AgentCgroup> locate(CgroupMounts mounts, List<String> procSelfCgroup, long pid) {
        if (mounts.v2Root() == null) {
            return Optional.empty();
        }
        Optional<String> relative = procSelfCgroup.stream()
                .filter(line -> line.startsWith("0::"))
                .map(line -> line.substring(3).strip().replaceFirst("^/+", ""))
                .findFirst();
        if (relative.isEmpty()) {
            return Optional.empty();
        }
        if (mounts.v2NamespaceDepth() == 0) {
            Path own = relative.get().isEmpty() ? mounts.v2Root() : mounts.v2Root().resolve(relative.get());
            return Optional.of(new AgentCgroup(mounts.v2Root(), own));
        }
        try (Stream<Path> candidates = Files.walk(mounts.v2Root(), mounts.v2NamespaceDepth())) {
            return candidates
                    .filter(dir -> mounts.v2Root().relativize(dir).getNameCount() == mounts.v2NamespaceDepth())
                    .map(root -> new AgentCgroup(root, relative.get().isEmpty() ? root : root.resolve(relative.get())))
                    .filter(found -> holds(found.own(), pid))
                    .findFirst();
        } catch (IOException | java.io.UncheckedIOException e) {
            return Optional.empty();
        }
    }

    private static boolean holds(Path cgroup, long pid) {
        try (Stream<String> lines = Files.lines(cgroup.resolve("cgroup.procs"))) {
            String wanted = Long.toString(pid);
            return lines.anyMatch(line -> line.strip().equals(wanted));
        } catch (IOException | java.io.UncheckedIOException e) {
            return false;
        }
    }
}
