package dev.berth.host.cgroup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One task's cgroup: a directory per v1 controller hierarchy, or one directory in the v2 hierarchy.
 * Thread-safe (it holds no mutable state; the kernel serialises the file writes).
 */
public final class TaskCgroup {

    /** Key of the single v2 directory in {@link #dirs()}. */
    public static final String UNIFIED = "unified";

    static final int REMOVE_ATTEMPTS = 50;
    static final Duration REMOVE_BACKOFF = Duration.ofMillis(20);

    private final CgroupVersion version;
    private final String name;
    private final Map<String, Path> dirs;
    private final Consumer<Duration> sleeper;

    TaskCgroup(CgroupVersion version, String name, Map<String, Path> dirs, Consumer<Duration> sleeper) {
        if (version == CgroupVersion.NONE || dirs.isEmpty()) {
            throw new IllegalArgumentException("a task cgroup needs a cgroup version and directories");
        }
        this.version = version;
        this.name = Objects.requireNonNull(name, "'name' must not be null");
        this.dirs = Map.copyOf(dirs);
        this.sleeper = sleeper;
    }

    public CgroupVersion version() {
        return version;
    }

    /** Path relative to each hierarchy's mount, {@code berth-<nodeShortId>/<allocId>.<task>}; stored in driver state. */
    public String name() {
        return name;
    }

    /** Directory per v1 controller ({@code memory}, {@code cpu}, {@code cpuacct}, {@code pids}, {@code cpuset}) or {@link #UNIFIED} on v2. */
    public Map<String, Path> dirs() {
        return dirs;
    }

    /** The directory of a v1 controller, or the unified directory on v2; null when that controller is not mounted. */
    public Path dir(String controller) {
        return version == CgroupVersion.V2 ? dirs.get(UNIFIED) : dirs.get(controller);
    }

    /** Moves a process (all its threads) into the cgroup, in every hierarchy. Its later children are born inside. */
    public void addProcess(long pid) throws IOException {
        for (Path dir : distinctDirs()) {
            if (dir.equals(dirs.get("cpuset")) && !Files.isDirectory(dir)) {
                continue; // a v1 cgroup made by an agent that did not manage cpusets yet (an upgrade): it has none
            }
            Files.writeString(dir.resolve("cgroup.procs"), Long.toString(pid), StandardCharsets.US_ASCII);
        }
    }

    /** The pids in the cgroup now (from the pids, else memory, hierarchy on v1); empty when it is gone. */
    public List<Long> pids() {
        Path procs = procsFile();
        try {
            List<Long> pids = new ArrayList<>();
            for (String line : Files.readAllLines(procs, StandardCharsets.US_ASCII)) {
                if (!line.isBlank()) {
                    pids.add(Long.parseLong(line.strip()));
                }
            }
            return pids;
        } catch (NoSuchFileException gone) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + procs, e);
        }
    }

    /**
     * SIGKILLs every process in the cgroup, re-reading the list until it is empty so processes forked during the
     * kill are caught too. Returns whether the cgroup emptied within the bounded attempts.
     */
    public boolean killAll() {
        long self = ProcessHandle.current().pid();
        for (int attempt = 0; attempt < REMOVE_ATTEMPTS; attempt++) {
            List<Long> pids = pids();
            if (pids.isEmpty()) {
                return true;
            }
            for (long pid : pids) {
                if (pid != self) {
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
            sleeper.accept(REMOVE_BACKOFF);
        }
        return pids().isEmpty();
    }

    /**
     * Kills every process, then removes the directories. {@code rmdir} fails with EBUSY until the kernel has
     * finished tearing the killed processes down, so each removal is retried a bounded number of times.
     *
     * @throws IOException when a directory could still not be removed
     */
    public void remove() throws IOException {
        killAll();
        IOException last = null;
        for (Path dir : distinctDirs()) {
            last = null;
            for (int attempt = 0; attempt < REMOVE_ATTEMPTS; attempt++) {
                try {
                    removeDir(dir);
                    last = null;
                    break;
                } catch (IOException busy) {
                    last = busy;
                    killAll();
                    sleeper.accept(REMOVE_BACKOFF);
                }
            }
            if (last != null) {
                throw new IOException("cannot remove cgroup " + dir + " after " + REMOVE_ATTEMPTS + " attempts", last);
            }
        }
    }

    private static void removeDir(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        if (!Files.getFileStore(dir).type().startsWith("cgroup")) {
            // A plain directory laid out like a cgroup (the v2 fixture): its control files are real files.
            try (var files = Files.list(dir)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    Files.delete(file);
                }
            }
        }
        Files.delete(dir);
    }

    private Path procsFile() {
        Path dir = version == CgroupVersion.V2 ? dirs.get(UNIFIED) : dirs.getOrDefault("pids", dirs.get("memory"));
        return dir.resolve("cgroup.procs");
    }

    private List<Path> distinctDirs() {
        return List.copyOf(new LinkedHashSet<>(dirs.values()));
    }

    @Override
    public String toString() {
        return "TaskCgroup[" + version + " " + name + "]";
    }
}
