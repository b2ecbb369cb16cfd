package dev.berth.alloc;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.management.HotSpotDiagnosticMXBean;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.berth.Application;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.JobSpec;
import dev.berth.alloc.spec.ResourcesSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Agent shutdown on its own context: every {@code berth-} thread ends promptly, the task process keeps running (stop is not
 * kill), the alloc meters report while it runs, and a restarted agent re-attaches to the process from the H2 state.
 */
class AgentShutdownTest {

    @TempDir
    Path dir;

    /** Live threads named {@code berth-…}, virtual ones included (a JSON thread dump; getAllStackTraces misses them). */
    private List<String> berthThreads() throws Exception {
        Path dump = dir.resolve("threads-" + System.nanoTime() + ".json");
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .dumpThreads(dump.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
        List<String> names = new ArrayList<>();
        Matcher m = Pattern.compile("\"name\": \"(berth-[^\"]*)\"").matcher(Files.readString(dump));
        while (m.find()) {
            names.add(m.group(1));
        }
        Files.delete(dump);
        return names;
    }

    @Test
    void shutdownEndsRunnerThreadsAndLeavesTasksRunning() throws Exception {
        // Command-line arguments: they win over ./application.yml (builder properties would only be defaults).
        // Other (cached) test contexts in this JVM may own berth- threads of their own: only ours must go.
        List<String> before = berthThreads();
        String[] args = {"--berth.data-dir=" + dir, "--berth.drivers.raw-exec.enabled=true", "--berth.drivers.mock.enabled=true",
                "--server.port=0", "--server.address=127.0.0.1", "--spring.main.keep-alive=false"};
        ConfigurableApplicationContext ctx = new SpringApplicationBuilder(Application.class).run(args);
        long pid;
        long pgid;
        try {
            AllocManager allocs = ctx.getBean(AllocManager.class);
            TaskSpec task = new TaskSpec("sleeper", "raw_exec", Map.of("command", "/bin/sh",
                    "args", List.of("-c", "echo $$ > \"$NOMAD_TASK_DIR/pid\"; exec sleep 1000")), null,
                    new ResourcesSpec(100, 32, null, null), null, null, null, null, null, null, null);
            TaskGroupSpec group = new TaskGroupSpec("g", 1, List.of(task), null, null, null, null);
            allocs.submit("shut1", new AllocationSpec("shut1", "j.g[0]", null, "j",
                    new JobSpec("j", "j", "service", null, null, null, null, List.of(group)), "g", "run", 1L, null, null));
            await().atMost(Duration.ofSeconds(20)).until(() -> allocs.get("shut1").orElseThrow().record().clientStatus().equals("running"));
            Path pidFile = dir.resolve("alloc/shut1/sleeper/local/pid");
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(pidFile) && !Files.readString(pidFile).isBlank());
            pid = Long.parseLong(Files.readString(pidFile).trim());
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            pgid = Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[2]);
            // While the task runs, neither its alloc runner nor its task runner parks a thread: both wait by callback.
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(berthThreads()).doesNotContain("berth-alloc-shut1", "berth-task-shut1-sleeper"));
            assertThat(allocs.get("shut1").orElseThrow().record().clientStatus()).isEqualTo("running");
            MeterRegistry registry = ctx.getBean(MeterRegistry.class);
            // The task runner reports the start to the metrics listener after it persisted the Started state (which makes
            // the alloc "running"): on a busy machine the test thread can look in between, so wait for them.
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                assertThat(registry.get("berth.client.allocations").tag("status", "running").gauge().value()).isEqualTo(1.0);
                assertThat(registry.get("berth.client.tasks").tag("state", "running").gauge().value()).isEqualTo(1.0);
                assertThat(registry.get("berth.client.allocated.cpu").gauge().value()).isEqualTo(100.0);
                assertThat(registry.get("berth.client.alloc.start.latency").timer().count()).isEqualTo(1);
                assertThat(registry.get("berth.client.hook.duration").tag("hook", "task_dir").tag("phase", "prestart").timer().count())
                        .isEqualTo(1);
            });
        } finally {
            ctx.close();
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            List<String> left = new ArrayList<>(berthThreads());
            before.forEach(left::remove);
            assertThat(left).isEmpty();
        });
        try {
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);
            // A new agent on the same data dir re-attaches to the still running process (no new Started) and can kill it.
            ConfigurableApplicationContext again = new SpringApplicationBuilder(Application.class).run(args);
            try {
                AllocManager allocs = again.getBean(AllocManager.class);
                AllocView view = allocs.get("shut1").orElseThrow();
                assertThat(view.record().clientStatus()).isEqualTo("running");
                assertThat(view.taskStates().get("sleeper").events()).extracting(e -> e.type())
                        .containsExactly("Received", "Task Setup", "Started");
                allocs.destroy("shut1").get(60, java.util.concurrent.TimeUnit.SECONDS);
                long killed = pid;
                await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.of(killed).map(p -> !p.isAlive()).orElse(true));
            } finally {
                again.close();
            }
        } finally {
            // raw_exec runs the task in its own process group: clean up the whole group if a check above failed.
            new ProcessBuilder("kill", "-9", "--", "-" + pgid).start().waitFor();
        }
    }
}
