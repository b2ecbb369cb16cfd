package dev.berth.driver.rawexec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.berth.driver.ExitResult;

/**
 * How raw_exec launches a task so that its exit status outlives the agent (issue 7). The command line is
 *
 * <pre>setsid env --default-signal /bin/sh -c SCRIPT berth-task EXIT_FILE STDOUT_FIFO|- STDERR_FIFO|- CGROUP_PROCS|- [env -u PWD] PROGRAM ARGS…</pre>
 *
 * <ul>
 *   <li>{@code setsid} makes the shell a session and process-group leader: pid = pgid, and the whole task can be
 *       signalled with {@code kill(-pgid)}.</li>
 *   <li>{@code env --default-signal} undoes signal dispositions the agent's JVM may have inherited as ignored
 *       (e.g. SIGINT when started in the background), which a shell could not reset.</li>
 *   <li>The shell traps every catchable signal with a no-op, so a signal sent to the group does not kill the shell
 *       before the task; the task runs as its foreground child with default dispositions (trapped signals are reset
 *       on exec). After the task exits the shell writes {@code $?} to {@code EXIT_FILE.tmp}, renames it to
 *       {@code EXIT_FILE} (atomic) and exits with the same status.</li>
 *   <li>When an output goes to a FIFO, the shell opens it read-write ({@code exec 1<>fifo}) and keeps it open while
 *       the task runs: the pipe then always has a reader, so the task's writes never fail with EPIPE while the agent
 *       (the real reader) is away; they only block once the pipe buffer is full.</li>
 *   <li>When the task has a cgroup, the shell first writes its own pid into each hierarchy's {@code cgroup.procs}
 *       (the space-separated {@code CGROUP_PROCS} argument) and only then starts the task: every process of the task
 *       is born inside the cgroup. Moving the pid from the agent after {@code start()} would race with the task's
 *       first forks. Failing to join is fatal (exit 125) rather than silently running outside the cgroup.</li>
 *   <li>The shell resets its {@code oom_score_adj} to 0 before the task starts (Nomad's executor does the same): an
 *       agent protected from the OOM killer (systemd's {@code OOMScoreAdjust=-1000}) must not pass that protection on
 *       to its tasks, which would then be the last processes the kernel kills. Raising the value needs no privilege.</li>
 *   <li>dash exports {@code PWD} to its children; {@code env -u PWD} removes it again unless the task's env sets it,
 *       so the task sees exactly {@code TaskConfig.env}.</li>
 * </ul>
 * A status above 128 is {@code 128 + signal}, as shells report it: {@link #toExitResult} turns it into Nomad's
 * {@code ExitCode=128+sig, Signal=sig}. The cost is one idle {@code sh} per task (about 1.7 MB RSS).
 */
final class ExitShim {

    /** Marks "no FIFO for this stream" in the shim's arguments. */
    static final String NO_FIFO = "-";

    static final String SCRIPT = "f=$1; o=$2; e=$3; c=$4; shift 4; "
            + "echo 0 2>/dev/null > /proc/self/oom_score_adj; "
            + "[ \"$c\" = - ] || for p in $c; do echo $$ > \"$p\" || { echo \"berth: cannot join cgroup $p\" >&2; exit 125; }; done; "
            + "[ \"$o\" = - ] || exec 1<>\"$o\"; [ \"$e\" = - ] || exec 2<>\"$e\"; "
            + "trap : 1 2 3 4 5 6 7 8 10 11 12 13 14 15 16 20 21 22 24 25 26 27 29 30 31; "
            + "\"$@\"; rc=$?; "
            + "printf %d \"$rc\" > \"$f.tmp\" && /bin/mv -f \"$f.tmp\" \"$f\"; "
            + "exit \"$rc\"";

    private ExitShim() {
    }

    /**
     * @param stdoutFifo FIFO the shim opens read-write as the task's stdout, or null (stdout comes from the ProcessBuilder)
     * @param stderrFifo the same for stderr
     */
    static List<String> command(String setsid, boolean envDefaultSignal, Path exitFile, Path stdoutFifo, Path stderrFifo,
            boolean keepPwd, Path program, List<String> args) {
        return command(setsid, envDefaultSignal, exitFile, stdoutFifo, stderrFifo, List.of(), keepPwd, program, args);
    }

    /** @param cgroupProcs the {@code cgroup.procs} files the shim joins before starting the task (empty: none) */
    static List<String> command(String setsid, boolean envDefaultSignal, Path exitFile, Path stdoutFifo, Path stderrFifo,
            List<Path> cgroupProcs, boolean keepPwd, Path program, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(setsid);
        if (envDefaultSignal) {
            cmd.add("/usr/bin/env");
            cmd.add("--default-signal");
        }
        cmd.addAll(List.of("/bin/sh", "-c", SCRIPT, "berth-task", exitFile.toString(),
                stdoutFifo == null ? NO_FIFO : stdoutFifo.toString(), stderrFifo == null ? NO_FIFO : stderrFifo.toString(),
                cgroupProcs.isEmpty() ? NO_FIFO : String.join(" ", cgroupProcs.stream().map(Path::toString).toList())));
        if (!keepPwd) {
            cmd.addAll(List.of("/usr/bin/env", "-u", "PWD"));
        }
        cmd.add(program.toString());
        cmd.addAll(args);
        return cmd;
    }

    /** Nomad's executor convention: killed by signal s → exit code 128+s and signal s. */
    static ExitResult toExitResult(int status) {
        if (status > 128 && status < 128 + 65) {
            return new ExitResult(status, status - 128, false, null);
        }
        return ExitResult.ofCode(status);
    }

    /** The status the shim recorded, if it wrote one. */
    static Optional<ExitResult> read(Path exitFile) {
        try {
            String text = Files.readString(exitFile, StandardCharsets.US_ASCII).trim();
            return Optional.of(toExitResult(Integer.parseInt(text)));
        } catch (NoSuchFileException ex) {
            return Optional.empty();
        } catch (IOException | NumberFormatException ex) {
            return Optional.of(new ExitResult(0, 0, false, "unreadable exit status file " + exitFile + ": " + ex.getMessage()));
        }
    }
}
