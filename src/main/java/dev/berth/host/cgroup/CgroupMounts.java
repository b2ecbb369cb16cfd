package dev.berth.host.cgroup;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cgroup mounts of this host, parsed from {@code /proc/self/mountinfo}.
 *
 * <p>Version choice: if a v1 {@code memory} hierarchy is mounted, the host is v1 (this includes the "hybrid"
 * layout where an empty cgroup2 sits at {@code /sys/fs/cgroup/unified}: its controllers are all bound to v1).
 * Otherwise a cgroup2 mount makes it v2. Otherwise there is nothing to use.
 *
 * <p>A cgroup2 mount is used when it shows the whole hierarchy the agent can see: its root is {@code /} (the host's root,
 * or the root of the agent's cgroup namespace when the container mounted its own), or only {@code ..} steps (a
 * container in its own cgroup namespace with the host's {@code /sys/fs/cgroup} mounted in: the kernel then shows the
 * mount's root relative to the namespace's root, e.g. {@code /../..}, and {@code /proc/self/cgroup} says {@code 0::/}).
 *
 * @param v1              mount point per v1 controller ({@code memory}, {@code cpu}, {@code cpuacct}, {@code pids},
 *                        {@code cpuset});
 *                        co-mounted controllers (e.g. {@code cpu,cpuacct}) share one path
 * @param v2Root          the cgroup2 mount point, or null
 * @param v2NamespaceDepth how many levels below {@code v2Root} the agent's cgroup namespace root lies (the number of
 *                        {@code ..} steps in the mount's root; 0 when the mount shows the namespace's own root)
 */
public record CgroupMounts(Map<String, Path> v1, Path v2Root, int v2NamespaceDepth) {

    /** The v1 controllers Berth uses. */
    public static final List<String> V1_CONTROLLERS = List.of("memory", "cpu", "cpuacct", "pids", "cpuset");

    private static final Set<String> WANTED = Set.copyOf(V1_CONTROLLERS);

    public CgroupMounts {
        v1 = Map.copyOf(v1);
        if (v2NamespaceDepth < 0) {
            throw new IllegalArgumentException("v2NamespaceDepth must not be negative, was " + v2NamespaceDepth);
        }
    }

    /** Mounts whose cgroup2 root (if any) is the agent's namespace root. */
    public CgroupMounts(Map<String, Path> v1, Path v2Root) {
        this(v1, v2Root, 0);
    }

    public static CgroupMounts none() {
        return new CgroupMounts(Map.of(), null);
    }

    /**
     * Parses mountinfo lines ({@code id parent maj:min root mountpoint opts [optional…] - fstype source superopts}).
     * A v1 mount is used only when its root is {@code /} and a v2 mount only when it shows the whole visible hierarchy
     * (see the class comment): a bind-mounted sub-cgroup would put our cgroups inside someone else's. Of two usable
     * cgroup2 mounts the first that shows the namespace's own root wins.
     */
    public static CgroupMounts parse(List<String> mountinfo) {
        Map<String, Path> v1 = new HashMap<>();
        Path v2 = null;
        int v2Depth = 0;
        for (String line : mountinfo) {
            String[] fields = line.split(" ");
            int dash = List.of(fields).indexOf("-");
            if (dash < 6 || fields.length < dash + 4) {
                continue;
            }
            String root = fields[3];
            Path mountPoint = Path.of(unescape(fields[4]));
            String fsType = fields[dash + 1];
            int depth = levelsUp(root);
            if ("cgroup2".equals(fsType) && depth >= 0 && (v2 == null || v2Depth > 0 && depth == 0)) {
                v2 = mountPoint;
                v2Depth = depth;
            } else if ("cgroup".equals(fsType) && "/".equals(root)) {
                for (String option : fields[dash + 3].split(",")) {
                    if (WANTED.contains(option)) {
                        v1.putIfAbsent(option, mountPoint);
                    }
                }
            }
        }
        return new CgroupMounts(v1, v2, v2Depth);
    }

    // "/" -> 0, "/../.." -> 2; any named step (a bind-mounted subtree) -> -1.
    private static int levelsUp(String root) {
        if ("/".equals(root)) {
            return 0;
        }
        String[] steps = root.substring(1).split("/");
        for (String step : steps) {
            if (!"..".equals(step)) {
                return -1;
            }
        }
        return root.startsWith("/") ? steps.length : -1;
    }

    /** The version per-task cgroups are made in. */
    public CgroupVersion version() {
        if (v1.containsKey("memory")) {
            return CgroupVersion.V1;
        }
        return v2Root != null ? CgroupVersion.V2 : CgroupVersion.NONE;
    }

    // mountinfo escapes space, tab, newline and backslash as \ooo octal.
    private static String unescape(String field) {
        if (field.indexOf('\\') < 0) {
            return field;
        }
        StringBuilder out = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && i + 3 < field.length()) {
                out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
