package dev.berth.driver.rawexec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.host.ProcStat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Real children through posix_spawn + pidfd: what they inherit, the statuses reported, and no JDK reaper thread. */
class SpawnedChildrenTest {

    @TempDir
    Path dir;

    private SpawnedChildren spawner;

    @BeforeEach
    void setUp() {
        spawner = SpawnedChildren.createOrNull();
        assertThat(spawner).as("posix_spawn + pidfd on this Linux/glibc").isNotNull();
    }

    @AfterEach
    void tearDown() {
        spawner.close();
    }

    /**
     * A process the spawner did not start (as after an agent restart) is watched through its pidfd: the callback comes
     * when it exits and not before; a pid that is gone, or whose start time is not the one given, is refused (the
     * caller then polls).
     */
    @Test
    void aProcessItDidNotStartIsWatchedUntilItExits() throws Exception {
        Process other = new ProcessBuilder("sleep", "30").start();
        try {
            long startTicks = ProcStat.read(other.pid()).orElseThrow().startTicks();
            CompletableFuture<Void> gone = new CompletableFuture<>();
            assertThat(spawner.watchExit((int) other.pid(), startTicks + 1, () -> gone.complete(null))).isFalse();
            assertThat(spawner.watchExit((int) other.pid(), startTicks, () -> gone.complete(null))).isTrue();
            int watched = spawner.watched();
            assertThat(gone).isNotDone();

            other.destroyForcibly();
            assertThat(gone).succeedsWithin(Duration.ofSeconds(10));
            assertThat(spawner.watched()).isEqualTo(watched - 1);
            other.waitFor();
            assertThat(spawner.watchExit((int) other.pid(), startTicks, () -> { })).isFalse();
        } finally {
            other.destroyForcibly();
        }
    }

    @Test
    void theChildGetsExactlyItsEnvironmentDirectoryOutputsAndNoAgentDescriptor() throws Exception {
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");
        Files.writeString(out, "kept\n");
        CompletableFuture<Integer> exit = new CompletableFuture<>();
        spawner.spawn(List.of("/bin/sh", "-c", "pwd; env | sort; echo oops >&2; read x; exit 7"),
                Map.of("A", "1", "PATH", "/usr/bin:/bin"), dir, out, err, exit::complete);

        assertThat(exit.get(10, TimeUnit.SECONDS)).isEqualTo(7); // stdin is /dev/null: read returns at once
        List<String> lines = Files.readAllLines(out);
        assertThat(lines.get(0)).isEqualTo("kept"); // appended, not truncated
        assertThat(lines.get(1)).isEqualTo(dir.toString());
        assertThat(lines).contains("A=1", "PATH=/usr/bin:/bin");
        assertThat(Files.readString(err)).isEqualTo("oops\n");
    }

    /**
     * None of the JVM's descriptors reaches the child: read from outside, in /proc, while it sleeps (a shell listing its
     * own descriptors would also see the pipes it opens for its pipelines, more or fewer as the scheduler interleaves).
     */
    @Test
    void theChildInheritsNoDescriptorBeyondTheStandardThree() throws Exception {
        CompletableFuture<Integer> exit = new CompletableFuture<>();
        int pid = spawner.spawn(List.of("/bin/sleep", "30"), Map.of("PATH", "/usr/bin:/bin"), dir, dir.resolve("o"), dir.resolve("e"),
                exit::complete);
        try {
            Path fds = Path.of("/proc/" + pid + "/fd");
            // right after exec the loader may hold a library open for a moment; a leaked descriptor stays for good
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                try (var listed = Files.list(fds)) {
                    assertThat(listed.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("0", "1", "2");
                }
            });
        } finally {
            new ProcessBuilder("kill", "-9", Integer.toString(pid)).start().waitFor();
            exit.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void exitCodesAndSignalDeathsAreReportedAsProcessExitValue() throws Exception {
        assertThat(run("exit 0")).isZero();
        assertThat(run("exit 42")).isEqualTo(42);
        assertThat(run("kill -TERM $$")).isEqualTo(128 + 15);
        assertThat(run("kill -KILL $$")).isEqualTo(128 + 9);
        assertThat(spawner.watched()).isZero();
    }

    @Test
    void signalsTheAgentIgnoresAreAtTheirDefaultInTheChild() throws Exception {
        // field SigIgn of /proc/self/status in the child: nothing ignored, whatever the JVM ignores (e.g. SIGINT in CI)
        Path out = dir.resolve("status");
        CompletableFuture<Integer> exit = new CompletableFuture<>();
        spawner.spawn(List.of("/bin/grep", "-E", "^Sig(Ign|Blk)", "/proc/self/status"), Map.of(), dir, out, null, exit::complete);
        assertThat(exit.get(10, TimeUnit.SECONDS)).isZero();
        List<String> lines = Files.readAllLines(out);
        assertThat(lines.get(0)).isEqualTo("SigBlk:\t0000000000000000");
        // standard signals 1-31 all at default; glibc's spawn itself leaves its two internal real-time signals ignored
        long ignored = Long.parseUnsignedLong(lines.get(1).substring("SigIgn:\t".length()), 16);
        assertThat(ignored & 0x7fffffffL).isZero(); // bit n-1 is signal n
    }

    @Test
    void manyChildrenNeedNoProcessReaperThreads() throws Exception {
        long reapersBefore = reapers();
        List<CompletableFuture<Integer>> exits = new java.util.ArrayList<>();
        for (int i = 0; i < 50; i++) {
            CompletableFuture<Integer> exit = new CompletableFuture<>();
            exits.add(exit);
            spawner.spawn(List.of("/bin/sleep", "0.5"), Map.of(), dir, null, null, exit::complete);
        }
        assertThat(spawner.watched()).isEqualTo(50);
        assertThat(reapers()).isEqualTo(reapersBefore);
        await().atMost(Duration.ofSeconds(20)).until(() -> exits.stream().allMatch(CompletableFuture::isDone));
        assertThat(exits).allSatisfy(e -> assertThat(e.join()).isZero());
        assertThat(spawner.watched()).isZero();
    }

    @Test
    void aMissingProgramIsAnIoErrorNotAChild() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> spawner.spawn(List.of("/nonexistent/prog"), Map.of(), dir,
                null, null, v -> { })).isInstanceOf(java.io.IOException.class).hasMessageContaining("No such file or directory");
        assertThat(spawner.watched()).isZero();
    }

    private int run(String script) throws Exception {
        CompletableFuture<Integer> exit = new CompletableFuture<>();
        spawner.spawn(List.of("/bin/sh", "-c", script), Map.of(), dir, null, null, exit::complete);
        return exit.get(10, TimeUnit.SECONDS);
    }

    private static long reapers() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().contains("process reaper")).count();
    }
}
