package dev.berth.alloc.hooks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.PrestartResult;
import dev.berth.alloc.task.TaskHooks.TaskPrestartHook;
import dev.berth.device.DeviceAllocator;
import dev.berth.device.Reservation;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code devices} task prestart hook (Nomad's {@code device_hook}): asks the plugins to reserve the task's admitted
 * instances ({@link DeviceAllocator#prepare}) and hands their env vars to the task and their mounts/device nodes to the
 * driver ({@link #DEVICE_PREFIX}/{@link #MOUNT_PREFIX} strings in {@code TaskConfig.devices}).
 *
 * <p>Nomad marks the hook done and still applies its env on later starts. Berth's hook executor drops the env of done
 * hooks, so this hook keeps its own persisted done-flag: the plugin's answer is written to {@link #STATE_FILE} in the
 * task's {@code private/} directory (which lives and dies with the allocation directory). When the file exists (a restart, or a restore after an agent restart) the plugins are not asked again
 * and the recorded env/mounts/devices are re-applied.
 */
@Component
@Order(20)
public class DevicesHook implements TaskPrestartHook {

    /** {@code device:<hostPath>:<taskPath>:<cgroupPerms>}. */
    public static final String DEVICE_PREFIX = "device:";

    /** {@code mount:<hostPath>:<taskPath>:ro|rw}. */
    public static final String MOUNT_PREFIX = "mount:";

    /** The persisted done-flag: the plugins' merged reservation, in Nomad's {@code ContainerReservation} JSON shape. */
    public static final String STATE_FILE = ".berth-devices.json";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final DeviceAllocator allocator;

    public DevicesHook(DeviceAllocator allocator) {
        this.allocator = allocator;
    }

    @Override
    public String name() {
        return "devices";
    }

    @Override
    public PrestartResult prestart(TaskHookContext context) throws Exception {
        String allocId = context.alloc().id();
        String task = context.task().name();
        if (allocator.allocated(allocId, task).isEmpty()) {
            return PrestartResult.empty();
        }
        Path state = context.taskDir().resolve("private").resolve(STATE_FILE);
        Reservation reservation;
        if (Files.exists(state)) {
            reservation = JSON.readValue(Files.readString(state), Reservation.class);
        } else {
            reservation = allocator.prepare(allocId, task);
            write(state, JSON.writeValueAsString(reservation));
        }
        // Not "done" for the executor (it would drop the env on later starts); the state file is the done-flag.
        return new PrestartResult(reservation.envs(), false, driverDevices(reservation));
    }

    /** The reservation's mounts and device nodes in the {@code TaskConfig.devices} string format. */
    public static List<String> driverDevices(Reservation reservation) {
        List<String> result = new ArrayList<>();
        reservation.devices().forEach(d -> result.add(DEVICE_PREFIX + d.hostPath() + ":" + (d.taskPath() == null ? d.hostPath() : d.taskPath())
                + ":" + (d.cgroupPerms() == null || d.cgroupPerms().isEmpty() ? "rwm" : d.cgroupPerms())));
        reservation.mounts().forEach(m -> result.add(MOUNT_PREFIX + m.hostPath() + ":" + m.taskPath() + ":" + (m.readOnly() ? "ro" : "rw")));
        return result;
    }

    private static void write(Path state, String json) throws IOException {
        Files.createDirectories(state.getParent());
        Path tmp = state.resolveSibling(STATE_FILE + ".tmp");
        Files.writeString(tmp, json);
        Files.move(tmp, state, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
