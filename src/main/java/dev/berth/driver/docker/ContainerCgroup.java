package dev.berth.driver.docker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a container's cgroup lives: the path inside each cgroup v1 hierarchy ({@code /docker/<id>} with the cgroupfs
 * driver) or inside the v2 unified tree. Read from {@code /proc/<pid>/cgroup} of the container's init process, so it
 * is right whatever the engine's cgroup driver or parent is.
 *
 * @param version 1 or 2
 * @param path    path relative to the hierarchy root, starting with {@code /}
 */
public record ContainerCgroup(int version, String path) {

    /**
     * driverState keys the stats collector reads (see docs/docker.md). {@code cgroup} holds the path relative to each
     * hierarchy root <em>without</em> a leading slash, like the exec driver's {@code TaskCgroup.name()}, so
     * {@code mount.resolve(cgroup)} works for both.
     */
    public static final String STATE_VERSION = dev.berth.driver.TaskHandles.CGROUP_VERSION;
    public static final String STATE_PATH = dev.berth.driver.TaskHandles.CGROUP;

    public ContainerCgroup {
        if (version != 1 && version != 2) {
            throw new IllegalArgumentException("'version' must be 1 or 2, was " + version);
        }
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("'path' must be absolute, was " + path);
        }
    }

    /** Parses the text of a {@code /proc/<pid>/cgroup} file: the v1 memory line wins, else the v2 {@code 0::} line. */
    public static Optional<ContainerCgroup> parse(String procCgroup) {
        List<String> lines = procCgroup.lines().toList();
        for (String line : lines) {
            String[] parts = line.split(":", 3);
            if (parts.length == 3 && Arrays.asList(parts[1].split(",")).contains("memory")) {
                return Optional.of(new ContainerCgroup(1, parts[2]));
            }
        }
        for (String line : lines) {
            if (line.startsWith("0::/")) {
                return Optional.of(new ContainerCgroup(2, line.substring(3)));
            }
        }
        return Optional.empty();
    }

    /** The cgroup of process {@code pid}, if it still exists. */
    public static Optional<ContainerCgroup> ofPid(long pid) {
        try {
            return parse(Files.readString(Path.of("/proc", Long.toString(pid), "cgroup")));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The engine's default place for a container's cgroup, for when no process is left to look at: the cgroupfs
     * driver uses {@code <parent or /docker>/<id>}, the systemd driver {@code /<slice or system.slice>/docker-<id>.scope}.
     */
    public static ContainerCgroup ofEngineLayout(String id, String cgroupParent, String cgroupDriver, String cgroupVersion) {
        int version = "2".equals(cgroupVersion) ? 2 : 1;
        boolean noParent = cgroupParent == null || cgroupParent.isBlank();
        if ("systemd".equals(cgroupDriver)) {
            return new ContainerCgroup(version, "/" + (noParent ? "system.slice" : cgroupParent) + "/docker-" + id + ".scope");
        }
        String parent = noParent ? "/docker" : cgroupParent.startsWith("/") ? cgroupParent : "/" + cgroupParent;
        return new ContainerCgroup(version, parent + "/" + id);
    }

    /** The value stored under {@link #STATE_PATH}: the path without its leading slash. */
    public String statePath() {
        return path.substring(1);
    }

    /** Reads it back from a handle's driverState. */
    public static Optional<ContainerCgroup> fromState(Map<String, String> driverState) {
        String version = driverState.get(STATE_VERSION);
        String path = driverState.get(STATE_PATH);
        if (version == null || path == null) {
            return Optional.empty();
        }
        return Optional.of(new ContainerCgroup(Integer.parseInt(version), path.startsWith("/") ? path : "/" + path));
    }

    /**
     * The container's cgroup directories keyed like the stats collector's task cgroups: {@code memory}, {@code cpu},
     * {@code cpuacct}, {@code pids} on v1 (those that exist under {@code root}), {@code unified} on v2.
     */
    public Map<String, Path> dirs(Path root) {
        if (version == 2) {
            return Map.of("unified", dir(root, ""));
        }
        Map<String, Path> dirs = new java.util.LinkedHashMap<>();
        for (String controller : List.of("memory", "cpu", "cpuacct", "pids")) {
            Path dir = dir(root, controller);
            if (Files.isDirectory(dir)) {
                dirs.put(controller, dir);
            }
        }
        return dirs;
    }

    /** The directory of {@code controller} (v1) or of the unified tree (v2) under {@code root}. */
    public Path dir(Path root, String controller) {
        Path base = version == 1 ? root.resolve(controller) : root;
        return base.resolve(path.substring(1));
    }
}
