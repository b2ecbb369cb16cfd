package dev.berth.host.cgroup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.berth.host.CoreSet;

/**
 * The cpuset files of task cgroups: which cores a task runs on ({@code cpuset.cpus}) and, on v1, its memory nodes
 * ({@code cpuset.mems}). A v1 cpuset cgroup starts with both empty and takes no process until they are set, and a child
 * may only use what its parent has: so the node's parent copies the hierarchy root's first. On v2 an empty
 * {@code cpuset.cpus} means "the parent's", so only the cores are written.
 */
final class CpusetFiles {

    static final String CPUS = "cpuset.cpus";
    static final String MEMS = "cpuset.mems";

    private CpusetFiles() {
    }

    /** v1: gives {@code parent} (made just now, or long ago) the cores and memory nodes of {@code root}, where unset. */
    static void inheritV1(Path root, Path parent) throws IOException {
        for (String file : new String[] {CPUS, MEMS}) {
            if (read(parent, file).isEmpty()) {
                write(parent, file, read(root, file));
            }
        }
    }

    /**
     * Puts the task on {@code cores}; on v1 also on its parent's memory nodes.
     *
     * @param dir the task's cpuset directory (v1) or its unified one (v2)
     * @throws IOException when the kernel refuses (a core outside the parent's set, no cpuset controller)
     */
    static void writeTask(CgroupVersion version, Path dir, CoreSet cores) throws IOException {
        if (version == CgroupVersion.V1 && read(dir, MEMS).isEmpty()) {
            write(dir, MEMS, read(dir.getParent(), MEMS));
        }
        write(dir, CPUS, cores.toString());
    }

    /** The cores the task's cgroup is on now (its {@code cpuset.cpus}). */
    static CoreSet read(Path dir) throws IOException {
        return CoreSet.parse(read(dir, CPUS));
    }

    private static String read(Path dir, String file) throws IOException {
        return Files.readString(dir.resolve(file), StandardCharsets.US_ASCII).strip();
    }

    private static void write(Path dir, String file, String value) throws IOException {
        Files.writeString(dir.resolve(file), value, StandardCharsets.US_ASCII);
    }
}
