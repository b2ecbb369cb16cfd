package dev.berth.driver.exec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.berth.driver.DriverException;
import dev.berth.driver.TaskDevice;

/**
 * The bind mounts of an exec task (its host volumes, a device reservation's mounts), made in a mount namespace of the
 * task's own: the task's program is started as {@code unshare --mount --propagation private sh -c MOUNT …}, which
 * bind-mounts each source onto its mount point, remounts it read-only where asked, and then execs the program. The
 * host never sees these mounts and they vanish with the task's last process; a mount that fails ends the task with
 * exit status 125 and {@code mount}'s message on its stderr.
 */
final class ExecMounts {

    /**
     * Runs as {@code sh -c MOUNT berth-mount <n> (<source> <target> <ro 0|1>)… <program> <args>…}.
     */
    static final String MOUNT = "n=$1; shift; while [ \"$n\" -gt 0 ]; do mount --bind \"$1\" \"$2\" || exit 125; "
            + "if [ \"$3\" = 1 ]; then mount -o remount,bind,ro \"$2\" || exit 125; fi; shift 3; n=$((n-1)); done; exec \"$@\"";

    private ExecMounts() {
    }

    /** The mounts among a task's devices (device nodes are not mounts). */
    static List<TaskDevice.Mount> of(List<TaskDevice> devices) {
        return devices.stream().filter(TaskDevice.Mount.class::isInstance).map(TaskDevice.Mount.class::cast).toList();
    }

    /**
     * The command line that makes {@code mounts} and then execs {@code program}: the program's own command line when there is
     * nothing to mount.
     *
     * @throws DriverException (not recoverable) when the host lacks {@code unshare} or {@code mount}
     */
    static List<String> wrap(List<TaskDevice.Mount> mounts, List<String> program) throws DriverException {
        if (mounts.isEmpty()) {
            return program;
        }
        String unshare = onPath("unshare").orElseThrow(() -> new DriverException(
                "exec cannot mount the task's volumes: unshare (util-linux) is not on the agent's PATH", false));
        onPath("mount").orElseThrow(() -> new DriverException(
                "exec cannot mount the task's volumes: mount (util-linux) is not on the agent's PATH", false));
        List<String> line = new ArrayList<>(List.of(unshare, "--mount", "--propagation", "private", "/bin/sh", "-c", MOUNT, "berth-mount",
                Integer.toString(mounts.size())));
        for (TaskDevice.Mount m : mounts) {
            line.add(m.hostPath());
            line.add(m.taskPath());
            line.add(m.readOnly() ? "1" : "0");
        }
        line.addAll(program);
        return line;
    }

    private static Optional<String> onPath(String bin) {
        String path = System.getenv("PATH");
        for (String dir : (path == null || path.isEmpty() ? "/usr/sbin:/usr/bin:/sbin:/bin" : path).split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir).resolve(bin);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate.toAbsolutePath().toString());
            }
        }
        return Optional.empty();
    }
}
