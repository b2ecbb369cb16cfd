package dev.berth.driver.hostexec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.pty4j.PtyProcess;
import com.pty4j.PtyProcessBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.driver.DriverException;
import dev.berth.driver.ExecSession;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.TaskHandles;
import dev.berth.host.ProcStat;
import dev.berth.host.cgroup.TaskCgroup;

/**
 * Starts an exec session in a running host-process task. The task's main process (the launch shim, {@code pid} in the
 * handle) was started with exactly the task's environment in the task's working directory, so both are read from
 * {@code /proc/<pid>/environ} and {@code /proc/<pid>/cwd}: right after an agent restart too, without the agent keeping
 * either. The command runs as
 *
 * <pre>[setsid] /bin/sh -c JOIN berth-exec N CGROUP_PROCS… COMMAND ARGS…</pre>
 *
 * which writes its own pid into each of the task's {@code cgroup.procs} before it execs the command, so the command and
 * everything it starts count against the task's limits and are killed with the task. Without a TTY it runs in its own
 * session and process group ({@code setsid}) on pipes; with one, pty4j makes it the session leader of a new
 * pseudo-terminal. {@code PATH} lookup of the command is the shell's, with the task's {@code PATH}.
 */
public final class HostExec {

    /** Joins every {@code cgroup.procs} given, then execs the rest; exit 125 when a join fails (never runs outside). */
    static final String JOIN = "n=$1; shift; while [ \"$n\" -gt 0 ]; do echo $$ > \"$1\" || exit 125; shift; n=$((n-1)); done; "
            + "exec \"$@\"";

    private static final Logger log = LoggerFactory.getLogger(HostExec.class);
    private static final Path PROC = Path.of("/proc");

    private HostExec() {
    }

    /**
     * @param cgroup the task's cgroup, when it has one (raw_exec without cgroups: none)
     * @throws DriverException when the task is not running or the command cannot start
     */
    public static ExecSession start(TaskHandle handle, Optional<TaskCgroup> cgroup, ExecSession.Request request)
            throws DriverException {
        long pid;
        long startTicks;
        try {
            pid = Long.parseLong(handle.driverState().getOrDefault(TaskHandles.PID, ""));
            startTicks = Long.parseLong(handle.driverState().getOrDefault(TaskHandles.START_TICKS, ""));
        } catch (NumberFormatException e) {
            throw new DriverException("task " + handle.taskId() + " has no process to exec in", false);
        }
        if (!ProcStat.isRunning(pid, startTicks)) {
            throw new DriverException("task is not running", false);
        }
        Map<String, String> env = environ(PROC.resolve(Long.toString(pid)).resolve("environ"));
        Path workDir;
        try {
            workDir = Files.readSymbolicLink(PROC.resolve(Long.toString(pid)).resolve("cwd"));
        } catch (IOException e) {
            throw new DriverException("cannot read the working directory of task " + handle.taskId() + ": " + e.getMessage(), false, e);
        }
        List<String> command = command(request, cgroup.map(HostExec::procsFiles).orElse(List.of()));
        try {
            if (request.tty()) {
                PtyProcessBuilder builder = new PtyProcessBuilder(command.toArray(String[]::new))
                        .setEnvironment(withTerm(env))
                        .setDirectory(workDir.toString())
                        .setConsole(false)
                        .setRedirectErrorStream(true);
                if (request.rows() > 0 && request.columns() > 0) {
                    builder.setInitialRows(request.rows()).setInitialColumns(request.columns());
                }
                PtyProcess process = builder.start();
                log.info("exec in task {}: pid {} on a pty: {}", handle.taskId(), process.pid(), request.command());
                return new ProcessSession(process, true);
            }
            List<String> withSession = new ArrayList<>();
            withSession.add(setsid());
            withSession.addAll(command);
            ProcessBuilder builder = new ProcessBuilder(withSession).directory(workDir.toFile());
            builder.environment().clear();
            builder.environment().putAll(env);
            Process process = builder.start();
            log.info("exec in task {}: pid {}: {}", handle.taskId(), process.pid(), request.command());
            return new ProcessSession(process, false);
        } catch (IOException e) {
            throw new DriverException("failed to start exec command: " + e.getMessage(), false, e);
        }
    }

    static List<String> command(ExecSession.Request request, List<Path> procsFiles) {
        List<String> cmd = new ArrayList<>(List.of("/bin/sh", "-c", JOIN, "berth-exec", Integer.toString(procsFiles.size())));
        procsFiles.forEach(p -> cmd.add(p.toString()));
        cmd.addAll(request.command());
        return cmd;
    }

    private static List<Path> procsFiles(TaskCgroup cgroup) {
        return new LinkedHashSet<>(cgroup.dirs().values()).stream().map(d -> d.resolve("cgroup.procs")).toList();
    }

    /** A terminal needs {@code TERM}; Nomad's clients send none, so an unset one becomes {@code xterm} (as Nomad's executor). */
    private static Map<String, String> withTerm(Map<String, String> env) {
        if (env.containsKey("TERM")) {
            return env;
        }
        Map<String, String> copy = new LinkedHashMap<>(env);
        copy.put("TERM", "xterm");
        return copy;
    }

    static Map<String, String> environ(Path file) throws DriverException {
        byte[] raw;
        try {
            raw = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new DriverException("cannot read the environment of the task: " + e.getMessage(), false, e);
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (String entry : new String(raw, StandardCharsets.UTF_8).split("\0")) {
            int eq = entry.indexOf('=');
            if (eq > 0) {
                env.put(entry.substring(0, eq), entry.substring(eq + 1));
            }
        }
        return env;
    }

    private static String setsid() throws IOException {
        for (String candidate : new String[] {"/usr/bin/setsid", "/bin/setsid"}) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        throw new IOException("setsid (util-linux) not found");
    }
}
