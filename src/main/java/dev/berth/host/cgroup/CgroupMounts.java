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
 * @param v1     mount point per v1 controller ({@code memory}, {@code cpu}, {@code cpuacct}, {@code pids});
 *               co-mounted controllers (e.g. {@code cpu,cpuacct}) share one path
 * @param v2Root the cgroup2 mount point, or null
 */
public record CgroupMounts(Map<String, Path> v1, Path v2Root) {

    /** The v1 controllers Berth uses. */
    public static final List<String> V1_CONTROLLERS = List.of("memory", "cpu", "cpuacct", "pids");

    private static final Set<String> WANTED = Set.copyOf(V1_CONTROLLERS);

    public CgroupMounts {
        v1 = Map.copyOf(v1);
    }

    public static CgroupMounts none() {
        return new CgroupMounts(Map.of(), null);
    }

    /**
     * Parses mountinfo lines ({@code id parent maj:min root mountpoint opts [optional…] - fstype source superopts}).
     * Only mounts whose root is {@code /} are used: a bind-mounted sub-cgroup would put our cgroups inside someone else's.
     */
    public static CgroupMounts parse(List<String> mountinfo) {
        Map<String, Path> v1 = new HashMap<>();
        Path v2 = null;
        for (String line : mountinfo) {
            String[] fields = line.split(" ");
            int dash = List.of(fields).indexOf("-");
            if (dash < 6 || fields.length < dash + 4 || !"/".equals(fields[3])) {
                continue;
            }
            Path mountPoint = Path.of(unescape(fields[4]));
            String fsType = fields[dash + 1];
            if ("cgroup2".equals(fsType) && v2 == null) {
                v2 = mountPoint;
            } else if ("cgroup".equals(fsType)) {
                for (String option : fields[dash + 3].split(",")) {
                    if (WANTED.contains(option)) {
                        v1.putIfAbsent(option, mountPoint);
                    }
                }
            }
        }
        return new CgroupMounts(v1, v2);
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
