package dev.berth.host.cgroup;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.berth.config.NodeIdentity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * This host's real cgroups (root, read-write): the v1 memory/cpu/cpuacct/pids hierarchies here, the unified hierarchy
 * in the VM of {@code .ci/v2-vm.sh}. The same steps and outcomes on both; only the file names differ.
 */
class CgroupManagerKernelTest {

    private CgroupManager manager;
    private TaskCgroup cgroup;
    private Process process;

    @BeforeEach
    void setUp() throws IOException {
        manager = HostCgroups.manager(new NodeIdentity(UUID.randomUUID().toString()));
    }

    @AfterEach
    void tearDown() throws IOException {
        if (process != null) {
            process.destroyForcibly();
        }
        if (cgroup != null) {
            cgroup.remove();
        }
        if (manager != null) {
            manager.removeParentIfEmpty();
            assertThat(manager.parentBase().resolve(manager.parentName())).doesNotExist();
        }
    }

    @Test
    void createMoveLimitsKillAllAndRemoveAgainstTheKernel() throws IOException {
        cgroup = manager.create("alloc-" + UUID.randomUUID(), "web", new CgroupLimits(64L << 20, 0, 512, 64)).orElseThrow();
        // limits read back from the kernel; swap is closed (memory+swap = memory on v1, no swap on v2)
        assertThat(HostCgroups.memoryLimit(cgroup)).isEqualTo(64L << 20);
        assertThat(HostCgroups.cpuWeight(cgroup)).isEqualTo(HostCgroups.expectedCpuWeight(cgroup, 512));
        assertThat(HostCgroups.pidsMax(cgroup)).isEqualTo(64);
        if (cgroup.version() == CgroupVersion.V2) {
            assertThat(cgroup.dirs().keySet()).containsExactly(TaskCgroup.UNIFIED);
            assertThat(read(cgroup.dir("memory"), "memory.swap.max")).isEqualTo("0");
        } else {
            assertThat(cgroup.dirs().keySet()).containsExactlyInAnyOrder("memory", "cpu", "cpuacct", "pids", "cpuset");
            assertThat(read(cgroup.dir("memory"), "memory.memsw.limit_in_bytes")).isEqualTo(Long.toString(64L << 20));
        }

        // a shell that forks a grandchild only after it has been moved in
        process = new ProcessBuilder("/bin/sh", "-c", "read go; sleep 300 & wait").start();
        cgroup.addProcess(process.pid());
        assertThat(HostCgroups.isMember(process.pid(), cgroup.name())).isTrue();
        if (cgroup.version() == CgroupVersion.V1) {
            assertThat(Files.readString(Path.of("/proc/" + process.pid() + "/cgroup")))
                    .contains("cpuacct:/" + cgroup.name()).contains("pids:/" + cgroup.name());
        }
        try (OutputStream stdin = process.getOutputStream()) {
            stdin.write("go\n".getBytes(StandardCharsets.US_ASCII));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> cgroup.pids().size() == 2);
        List<Long> pids = cgroup.pids();
        long grandchild = pids.stream().filter(p -> p != process.pid()).findFirst().orElseThrow();
        assertThat(ProcessHandle.of(grandchild).map(ProcessHandle::isAlive)).contains(true);

        assertThat(cgroup.killAll()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.of(grandchild).map(h -> !h.isAlive()).orElse(true));
        assertThat(cgroup.pids()).isEmpty();

        cgroup.remove();
        for (Path dir : cgroup.dirs().values()) {
            assertThat(dir).doesNotExist();
        }
        assertThat(manager.find(cgroup.name())).isEmpty();
    }

    /** A swap budget opens swap by exactly that much: memory+swap is memory plus the budget on v1, swap.max the budget on v2. */
    @Test
    void aSwapBudgetIsWrittenAsTheKernelExpectsIt() throws IOException {
        cgroup = manager.create("alloc-" + UUID.randomUUID(), "swapper", new CgroupLimits(64L << 20, 0, 512, 64, 0, 0, 16L << 20))
                .orElseThrow();
        assertThat(HostCgroups.memoryLimit(cgroup)).isEqualTo(64L << 20);
        if (cgroup.version() == CgroupVersion.V2) {
            assertThat(read(cgroup.dir("memory"), "memory.swap.max")).isEqualTo(Long.toString(16L << 20));
        } else if (Files.exists(cgroup.dir("memory").resolve("memory.memsw.limit_in_bytes"))) {
            assertThat(read(cgroup.dir("memory"), "memory.memsw.limit_in_bytes")).isEqualTo(Long.toString(80L << 20));
        }
    }

    @Test
    void removeKillsWhatIsStillRunning() throws IOException {
        cgroup = manager.create("alloc-" + UUID.randomUUID(), "db", CgroupLimits.none()).orElseThrow();
        process = new ProcessBuilder("sleep", "300").start();
        cgroup.addProcess(process.pid());

        cgroup.remove();

        assertThat(process.onExit().join().exitValue()).isEqualTo(137); // SIGKILL
        assertThat(cgroup.dir("memory")).doesNotExist();
    }

    private static String read(Path dir, String file) throws IOException {
        return Files.readString(dir.resolve(file)).strip();
    }
}
