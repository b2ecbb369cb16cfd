package dev.berth.driver.rawexec;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.driver.TaskHandle;

import static org.assertj.core.api.Assertions.assertThat;

/** The shim scan on a fixture {@code /proc}: only live session-leader shims whose exit file is in this agent's dir. */
class ShimScannerTest {

    @TempDir
    Path tmp;

    Path proc;
    final Path exitDir = Path.of("/data/a/drivers/raw_exec");

    void process(int pid, char state, int pgrp, long startTicks, String... argv) throws Exception {
        Path p = Files.createDirectories(proc.resolve(Integer.toString(pid)));
        Files.write(p.resolve("cmdline"), (String.join("\0", argv) + "\0").getBytes(StandardCharsets.UTF_8));
        StringBuilder stat = new StringBuilder(pid + " (sh) " + state + " 1 " + pgrp + " " + pgrp);
        for (int field = 7; field <= 21; field++) {
            stat.append(" 0");
        }
        stat.append(' ').append(startTicks).append(" 0 0\n");
        Files.writeString(p.resolve("stat"), stat);
    }

    String[] shim(String exitFile) {
        return new String[] {"/bin/sh", "-c", ExitShim.SCRIPT, "berth-task", exitFile, "-", "-", "/usr/bin/env", "-u", "PWD", "/bin/sleep", "9"};
    }

    @Test
    void findsOnlyThisAgentsLiveShimLeaders() throws Exception {
        proc = tmp.resolve("proc");
        process(100, 'S', 100, 5000, shim("/data/a/drivers/raw_exec/x_web-1.exit"));
        process(101, 'S', 100, 5001, shim("/data/a/drivers/raw_exec/x_web-1.exit")); // forked child, not yet exec'd
        process(102, 'S', 102, 5002, shim("/data/b/drivers/raw_exec/y_web-1.exit")); // another agent's task
        process(103, 'Z', 103, 5003, shim("/data/a/drivers/raw_exec/z_web-1.exit")); // exited, not reaped
        process(104, 'S', 104, 5004, "/bin/sleep", "9"); // the task itself
        process(105, 'S', 105, 5005, "/bin/sh", "-c", "echo", "berth-task"); // marker without an exit file
        Files.createDirectories(proc.resolve("self"));

        List<TaskHandle> found = ShimScanner.scan(proc, exitDir, Instant.EPOCH);

        assertThat(found).singleElement().satisfies(h -> {
            assertThat(h.driver()).isEqualTo("raw_exec");
            assertThat(h.driverState()).containsEntry("pid", "100").containsEntry("pgid", "100").containsEntry("start_ticks", "5000")
                    .containsEntry("exit_file", "/data/a/drivers/raw_exec/x_web-1.exit");
        });
    }

    @Test
    void aRealShimIsFound() throws Exception {
        Path dir = tmp.resolve("exits");
        Files.createDirectories(dir);
        Path exit = dir.resolve("t_web-1.exit");
        List<String> cmd = ExitShim.command("/usr/bin/setsid", false, exit, null, null, false, Path.of("/bin/sleep"), List.of("30"));
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            org.awaitility.Awaitility.await().until(() -> ShimScanner.scan(Path.of("/proc"), dir, Instant.EPOCH).size() == 1);
            TaskHandle h = ShimScanner.scan(Path.of("/proc"), dir, Instant.EPOCH).getFirst();
            assertThat(h.driverState()).containsEntry("pid", Long.toString(p.pid())).containsEntry("exit_file", exit.toString());
        } finally {
            new ProcessBuilder("kill", "-9", "--", "-" + p.pid()).start().waitFor();
            p.waitFor();
        }
        assertThat(ShimScanner.scan(Path.of("/proc"), dir, Instant.EPOCH)).isEmpty();
    }
}
