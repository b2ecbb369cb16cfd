package dev.berth.alloc.runner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.JobSpec;
import dev.berth.alloc.spec.ResourcesSpec;
import dev.berth.alloc.spec.RestartPolicySpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.config.Sleeper;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskState;
import dev.berth.config.NodeIdentity;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.HostCgroups;
import dev.berth.driver.exec.ExecDriver;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.driver.rawexec.TaskOutputs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An exec task that allocates past its memory limit, through the whole runner, on this host's real cgroups (v1 here,
 * v2 in the VM of {@code .ci/v2-vm.sh}): the
 * kernel OOM-kills it, the task gets Nomad's {@code Terminated} event with {@code oom_killed=true} and the exit message
 * {@code OOM Killed}, and the listener behind the {@code oom_killed} counter hears of it once.
 */
class ExecOomRunnerTest {

    @TempDir
    Path dir;
    RunnerHarness h;
    CgroupManager cgroups;
    ExecDriver exec;

    @BeforeEach
    void setUp() throws Exception {
        cgroups = HostCgroups.manager(new NodeIdentity(UUID.randomUUID().toString()));
        ScheduledThreadPoolExecutor poller = new ScheduledThreadPoolExecutor(1, Thread.ofVirtual().name("test-exec-", 0).factory());
        RawExecDriver processes = new RawExecDriver(true, Clock.systemUTC(), dir.resolve("exit"), poller, Duration.ofMillis(50),
                TaskOutputs.APPEND_TO_FILES);
        exec = new ExecDriver(true, processes, cgroups, 4096, 2000);
        h = new RunnerHarness(dir.resolve("allocs"), exec, Sleeper.system());
    }

    @AfterEach
    void tearDown() throws Exception {
        h.close();
        exec.close();
        cgroups.removeParentIfEmpty();
    }

    @Test
    void anOomKilledTaskIsReportedAsNomadDoes() {
        TaskSpec hog = new TaskSpec("hog", "exec", Map.of("command", "/bin/sh", "args",
                List.of("-c", "x=$(head -c 100000000 /dev/zero | tr '\\0' a); echo never")), null,
                new ResourcesSpec(100, 32, null, null), null, null, null, false, null, null, null);
        RestartPolicySpec noRestart = new RestartPolicySpec(0, Duration.ofMinutes(1).toNanos(), Duration.ofSeconds(1).toNanos(), "fail");
        TaskGroupSpec group = new TaskGroupSpec("g", 1, List.of(hog), noRestart, null, null, null);
        JobSpec job = new JobSpec("j", "j", "batch", "default", null, null, null, List.of(group));
        String id = UUID.randomUUID().toString();
        AllocRunner r = h.runner(new AllocationSpec(id, "j.g[0]", "default", "j", job, "g", "run", 1L, null, null));

        r.start();

        await().atMost(Duration.ofSeconds(60)).until(() -> r.taskStates().get("hog").dead());
        TaskState state = r.taskStates().get("hog");
        TaskEvent terminated = state.events().stream().filter(e -> e.type().equals(TaskEvent.TERMINATED)).findFirst().orElseThrow();
        assertThat(terminated.detail("oom_killed")).isEqualTo("true");
        assertThat(terminated.detail("exit_message")).isEqualTo("OOM Killed");
        assertThat(terminated.exitCode()).isEqualTo(137);
        assertThat(terminated.displayMessage()).contains("Exit Message: \"OOM Killed\"");
        assertThat(h.oomKilled).containsExactly(id + "/hog");
    }
}
