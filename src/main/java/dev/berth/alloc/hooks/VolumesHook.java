package dev.berth.alloc.hooks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.spec.VolumeMountSpec;
import dev.berth.alloc.spec.VolumeSpec;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.HookFailedException;
import dev.berth.alloc.task.TaskHooks.PrestartResult;
import dev.berth.alloc.task.TaskHooks.TaskPrestartHook;
import dev.berth.driver.TaskDevice;
import dev.berth.fingerprint.HostVolume;
import dev.berth.volume.HostVolumes;

/**
 * The {@code volumes} task prestart hook (Nomad's {@code volume_hook}): each {@code volume_mount} of the task becomes a
 * mount of the node's host volume, read-only when the node's volume, the group's {@code volume} or the mount says so.
 * Where the task sees it depends on the driver's isolation:
 * <ul>
 * <li>{@code docker} (and any driver with its own root): a bind mount at {@code destination} in the container;</li>
 * <li>{@code exec}, which runs in the host's root without a chroot: a bind mount at {@code <task dir>/<destination>}
 * in the task's own mount namespace, where Nomad's chroot would put it (the hook makes the empty mount point);</li>
 * <li>{@code raw_exec}, which has no isolation (Nomad mounts nothing for it): a symbolic link at
 * {@code <task dir>/<destination>} to the volume's path; read-only is not enforced, as nothing of raw_exec is.</li>
 * </ul>
 * Done once: the mounts are kept with the task's hook state, so restarts and restores reuse them.
 */
@Component
@Order(25)
public class VolumesHook implements TaskPrestartHook {

    private final HostVolumes hostVolumes;
    private final Clock clock;

    public VolumesHook(HostVolumes hostVolumes, Clock clock) {
        this.hostVolumes = hostVolumes;
        this.clock = clock;
    }

    @Override
    public String name() {
        return "volumes";
    }

    @Override
    public PrestartResult prestart(TaskHookContext context) throws Exception {
        TaskSpec task = context.task();
        if (task.volumeMountsOrEmpty().isEmpty()) {
            return PrestartResult.empty();
        }
        List<TaskDevice> mounts = new ArrayList<>();
        for (VolumeMountSpec m : task.volumeMountsOrEmpty()) {
            VolumeSpec request = context.group().volumesOrEmpty().get(m.volume());
            HostVolume volume = hostVolumes.get(request.source()).orElseThrow(() -> failed(
                    "host volume \"" + request.source() + "\" of volume \"" + m.volume() + "\" is not on this node"));
            boolean readOnly = volume.readOnly() || request.readOnlyOrFalse() || m.readOnlyOrFalse();
            switch (task.driver()) {
                case "exec" -> mounts.add(new TaskDevice.Mount(volume.path(), mountPoint(context.taskDir(), m, Path.of(volume.path())).toString(),
                        readOnly));
                case "raw_exec" -> link(context.taskDir(), m, Path.of(volume.path()));
                default -> mounts.add(new TaskDevice.Mount(volume.path(), m.destination(), readOnly));
            }
        }
        return new PrestartResult(Map.of(), true, mounts);
    }

    /** {@code destination} under the task directory (it cannot leave it: the spec refuses {@code ..}). */
    Path underTaskDir(Path taskDir, String destination) throws HookFailedException {
        Path target = taskDir.resolve(destination.replaceFirst("^/+", "")).normalize();
        if (!target.startsWith(taskDir) || target.equals(taskDir)) {
            throw failed("volume_mount destination " + destination + " must name a path inside the task directory");
        }
        return target;
    }

    /** An empty directory (or file, for a file volume) to mount onto. */
    private Path mountPoint(Path taskDir, VolumeMountSpec m, Path source) throws HookFailedException, IOException {
        Path target = underTaskDir(taskDir, m.destination());
        if (Files.isDirectory(source)) {
            Files.createDirectories(target);
        } else if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(target.getParent());
            Files.createFile(target);
        }
        return target;
    }

    private void link(Path taskDir, VolumeMountSpec m, Path source) throws HookFailedException, IOException {
        Path target = underTaskDir(taskDir, m.destination());
        Files.createDirectories(target.getParent());
        if (Files.isSymbolicLink(target) && Files.readSymbolicLink(target).equals(source)) {
            return;
        }
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw failed("volume_mount destination " + m.destination() + " already exists in the task directory");
        }
        Files.createSymbolicLink(target, source);
    }

    private HookFailedException failed(String why) {
        return new HookFailedException(why, TaskEvent.setupFailure(clock.instant(), why), false);
    }
}
