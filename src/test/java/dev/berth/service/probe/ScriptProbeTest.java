package dev.berth.service.probe;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Script checks: exit codes, environment, working directory, timeout (the whole process group dies), cgroup join. */
class ScriptProbeTest {

    @TempDir
    Path dir;

    @Test
    void exitZeroPassesWithTheTasksEnvironmentAndDirectory() throws Exception {
        ScriptProbe probe = new ScriptProbe("/bin/sh", List.of("-c", "echo \"$GREETING from $(pwd)\"; echo err >&2"),
                Map.of("GREETING", "hello", "PATH", "/usr/bin:/bin"), dir, List.of());
        ProbeResult r = probe.run(Duration.ofSeconds(10));
        assertThat(r.success()).isTrue();
        assertThat(r.statusCode()).isZero();
        assertThat(r.output()).contains("hello from " + dir.toRealPath()).contains("err");
    }

    @Test
    void aNonZeroExitFails() throws Exception {
        ProbeResult r = new ScriptProbe("/bin/sh", List.of("-c", "echo broken; exit 2"), Map.of(), dir, List.of()).run(Duration.ofSeconds(10));
        assertThat(r).isEqualTo(new ProbeResult(false, 2, "broken\n"));
    }

    @Test
    void aTimeoutKillsTheScriptAndItsChildren() throws Exception {
        Path pid = dir.resolve("child");
        ScriptProbe probe = new ScriptProbe("/bin/sh", List.of("-c", "sleep 300 & echo $! > " + pid + "; wait"), Map.of(), dir, List.of());
        ProbeResult r = probe.run(Duration.ofSeconds(1));
        assertThat(r.success()).isFalse();
        assertThat(r.output()).isEqualTo("script check timed out after 1000 ms");
        long child = Long.parseLong(Files.readString(pid).trim());
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> ProcessHandle.of(child).map(p -> !p.isAlive()).orElse(true));
    }

    @Test
    void aCgroupThatCannotBeJoinedFailsTheCheck() throws Exception {
        Path notACgroup = dir.resolve("missing").resolve("cgroup.procs");
        ProbeResult r = new ScriptProbe("/bin/true", List.of(), Map.of(), dir, List.of(notACgroup)).run(Duration.ofSeconds(10));
        assertThat(r.success()).isFalse();
        assertThat(r.statusCode()).isEqualTo(126);
        assertThat(r.output()).contains("cannot join the task's cgroup: " + notACgroup);
    }

    @Test
    void theJoinWritesTheScriptsOwnPidBeforeItRuns() throws Exception {
        Path procs = dir.resolve("cgroup.procs");
        Files.createFile(procs);
        ProbeResult r = new ScriptProbe("/bin/sh", List.of("-c", "echo $$"), Map.of(), dir, List.of(procs)).run(Duration.ofSeconds(10));
        assertThat(r.success()).isTrue();
        assertThat(Files.readString(procs).trim()).isEqualTo(r.output().trim());
    }
}
