package dev.berth.host.cgroup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Optional;

import dev.berth.config.NodeIdentity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real-kernel tests' view of this host's cgroups, so each asserts the same behaviour on v1 (the build machine) and
 * v2 (the VM of {@code .ci/v2-vm.sh}): which file holds a limit, how a process's membership reads. Fails rather than
 * skips on a host without a usable hierarchy: both kinds of test host have one.
 */
public final class HostCgroups {

    private HostCgroups() {
    }

    /** This host's mounts; fails when it mounts neither v1 memory nor cgroup2. */
    public static CgroupMounts mounts() {
        try {
            CgroupMounts mounts = CgroupMounts.parse(Files.readAllLines(Path.of("/proc/self/mountinfo")));
            assertThat(mounts.version()).as("this host mounts cgroup v1 or v2").isNotEqualTo(CgroupVersion.NONE);
            return mounts;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A manager as the agent makes it: this process's own cgroup located, so v2 delegation behaves as in production. */
    public static CgroupManager manager(NodeIdentity node) {
        CgroupMounts mounts = mounts();
        try {
            Optional<AgentCgroup> self = AgentCgroup.locate(mounts, Files.readAllLines(Path.of("/proc/self/cgroup")), ProcessHandle.current().pid());
            return new CgroupManager(mounts, node, CgroupManager.REAL_SLEEPER, self);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static CgroupVersion version() {
        return mounts().version();
    }

    /** The driver-state value of {@code cgroup_version} on this host. */
    public static String versionNumber() {
        return version() == CgroupVersion.V2 ? "2" : "1";
    }

    /** The hard memory limit: v1 {@code memory.limit_in_bytes}, v2 {@code memory.max}. */
    public static long memoryLimit(TaskCgroup cgroup) throws IOException {
        return read(cgroup.dir("memory"), cgroup.version() == CgroupVersion.V2 ? "memory.max" : "memory.limit_in_bytes");
    }

    /** The CPU weight Berth wrote for {@code shares} MHz: v1 {@code cpu.shares} as is, v2 {@code cpu.weight} converted. */
    public static long cpuWeight(TaskCgroup cgroup) throws IOException {
        return read(cgroup.dir("cpu"), cgroup.version() == CgroupVersion.V2 ? "cpu.weight" : "cpu.shares");
    }

    public static long expectedCpuWeight(TaskCgroup cgroup, long shares) {
        CgroupLimits limits = new CgroupLimits(0, 0, shares, 0);
        return cgroup.version() == CgroupVersion.V2 ? limits.v2Weight() : limits.v1Shares();
    }

    /**
     * The CFS quota as {@code "QUOTA PERIOD"} in microseconds, v2's {@code cpu.max} format ({@code max} for none); on v1
     * read from {@code cpu.cfs_quota_us} ({@code -1} for none) and {@code cpu.cfs_period_us}.
     */
    public static String cpuQuota(TaskCgroup cgroup) throws IOException {
        Path cpu = cgroup.dir("cpu");
        if (cgroup.version() == CgroupVersion.V2) {
            return Files.readString(cpu.resolve("cpu.max")).strip();
        }
        long quota = read(cpu, "cpu.cfs_quota_us");
        return (quota < 0 ? "max" : Long.toString(quota)) + " " + read(cpu, "cpu.cfs_period_us");
    }

    public static long pidsMax(TaskCgroup cgroup) throws IOException {
        return read(cgroup.dir("pids"), "pids.max");
    }

    /** Sets a hard memory limit from outside (as a test standing in for a host running short of memory). */
    public static void limitMemory(TaskCgroup cgroup, long bytes) throws IOException {
        Path memory = cgroup.dir("memory");
        if (cgroup.version() == CgroupVersion.V2) {
            Files.writeString(memory.resolve("memory.max"), Long.toString(bytes));
            Files.writeString(memory.resolve("memory.swap.max"), "0");
            return;
        }
        Files.writeString(memory.resolve("memory.limit_in_bytes"), Long.toString(bytes));
        if (Files.exists(memory.resolve("memory.memsw.limit_in_bytes"))) {
            Files.writeString(memory.resolve("memory.memsw.limit_in_bytes"), Long.toString(bytes));
        }
    }

    /** The line of {@code /proc/<pid>/cgroup} that places a process in the memory cgroup {@code name}. */
    public static String membershipLine(String name) {
        return version() == CgroupVersion.V2 ? "0::/" + name + "\n" : ":memory:/" + name + "\n";
    }

    /** Whether {@code pid} is in the task cgroup {@code name}, read from {@code /proc/<pid>/cgroup}. */
    public static boolean isMember(long pid, String name) throws IOException {
        return Files.readString(Path.of("/proc", Long.toString(pid), "cgroup")).contains(membershipLine(name));
    }

    /** What a cgroup-backed sample's memory {@code Measured} lists on this host (docs/stats.md). */
    public static String memoryMeasuredJson() {
        return version() == CgroupVersion.V2
                ? "[\"RSS\",\"Cache\",\"Swap\",\"Usage\",\"Max Usage\"]"
                : "[\"RSS\",\"Cache\",\"Swap\",\"Mapped File\",\"Usage\",\"Max Usage\",\"Kernel Usage\",\"Kernel Max Usage\"]";
    }

    /** The memory cgroup directory of process {@code pid} (a container's init), from its {@code /proc/<pid>/cgroup}. */
    public static Path memoryCgroupOf(long pid) throws IOException {
        CgroupMounts mounts = mounts();
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "cgroup"))) {
            String[] parts = line.split(":", 3);
            String path = parts[2].replaceFirst("^/+", "");
            if (mounts.version() == CgroupVersion.V2 && parts[0].equals("0")) {
                return mounts.v2Root().resolve(path);
            }
            if (mounts.version() == CgroupVersion.V1 && java.util.Arrays.asList(parts[1].split(",")).contains("memory")) {
                return mounts.v1().get("memory").resolve(path);
            }
        }
        throw new IllegalStateException("no memory cgroup line for pid " + pid);
    }

    /** Removes a node's (empty) parent directory in every hierarchy. */
    public static void removeParent(NodeIdentity node) throws IOException {
        CgroupMounts mounts = mounts();
        CgroupManager manager = manager(node);
        String parent = manager.parentName();
        LinkedHashSet<Path> roots = new LinkedHashSet<>(mounts.v1().values());
        if (mounts.version() == CgroupVersion.V2) {
            roots.add(manager.parentBase());
        }
        for (Path root : roots) {
            Files.deleteIfExists(root.resolve(parent));
        }
    }

    private static long read(Path dir, String file) throws IOException {
        return Long.parseLong(Files.readString(dir.resolve(file)).trim());
    }
}
