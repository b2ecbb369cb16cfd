package dev.berth.driver.rawexec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.berth.host.ProcStat;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.TaskHandles;

/**
 * Finds raw_exec tasks on the host from {@code /proc} alone (for crash reconciliation at start-up). Every task runs under the
 * {@link ExitShim}, whose command line carries the marker {@code berth-task} followed by the task's exit-file path. That
 * path lies under the driver's exit directory, which is under the agent's data dir: a shim belongs to this agent exactly
 * when its exit file is in this agent's directory, so two agents on one host never see each other's tasks.
 */
final class ShimScanner {

    static final String MARKER = "berth-task";

    private ShimScanner() {
    }

    /** Handles (pid, pgid, start ticks, exit file) of the live shims whose exit file is under {@code exitDir}. */
    static List<TaskHandle> scan(Path procRoot, Path exitDir, Instant now) {
        String prefix = exitDir.toAbsolutePath().normalize() + "/";
        List<TaskHandle> found = new ArrayList<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(procRoot, p -> isPid(p.getFileName().toString()))) {
            for (Path proc : procs) {
                int pid = Integer.parseInt(proc.getFileName().toString());
                exitFileOf(proc).filter(f -> f.startsWith(prefix)).ifPresent(exitFile -> {
                    Optional<ProcStat> stat = ProcStat.read(procRoot, pid);
                    // Only the session leader: a shim's forked child carries the same command line until it execs.
                    if (stat.isPresent() && stat.get().running() && stat.get().pgrp() == pid) {
                        found.add(handle(pid, stat.get(), exitFile, now));
                    }
                });
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + procRoot + ": " + e.getMessage(), e);
        }
        return found;
    }

    /** The argument after the {@code berth-task} marker in the process's command line. */
    static Optional<String> exitFileOf(Path proc) {
        byte[] raw;
        try {
            raw = Files.readAllBytes(proc.resolve("cmdline"));
        } catch (IOException e) {
            // gone, or a kernel thread we may not read
            return Optional.empty();
        }
        String[] argv = new String(raw, StandardCharsets.UTF_8).split("\0");
        for (int i = 0; i + 1 < argv.length; i++) {
            if (MARKER.equals(argv[i]) && argv[i + 1].endsWith(".exit")) {
                return Optional.of(argv[i + 1]);
            }
        }
        return Optional.empty();
    }

    private static TaskHandle handle(int pid, ProcStat stat, String exitFile, Instant now) {
        Map<String, String> state = new LinkedHashMap<>();
        state.put(TaskHandles.PID, Integer.toString(pid));
        state.put("pgid", Integer.toString(pid));
        state.put(TaskHandles.START_TICKS, Long.toString(stat.startTicks()));
        state.put(TaskHandles.CGROUP, "");
        state.put("exit_file", exitFile);
        // The task id is not recoverable exactly from the file name (it is sanitized); the unique exit file stands in.
        return new TaskHandle(RawExecDriver.NAME, "unknown:" + exitFile, now, state);
    }

    private static boolean isPid(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (!Character.isDigit(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
