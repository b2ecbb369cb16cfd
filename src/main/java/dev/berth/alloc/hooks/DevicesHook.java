package dev.berth.alloc.hooks;

import java.util.ArrayList;
import java.util.List;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.PrestartResult;
import dev.berth.alloc.task.TaskHooks.TaskPrestartHook;
import dev.berth.device.DeviceAllocator;
import dev.berth.device.Reservation;
import dev.berth.driver.TaskDevice;

/**
 * The {@code devices} task prestart hook (Nomad's {@code device_hook}): asks the plugins to reserve the task's admitted
 * instances ({@link DeviceAllocator#prepare}) and hands their env vars to the task and their mounts/device nodes to the
 * driver ({@link #DEVICE_PREFIX}/{@link #MOUNT_PREFIX} strings in {@code TaskConfig.devices}).
 *
 * <p>As in Nomad, the hook reports done: the hook executor keeps its env and devices with the task's local state
 * ({@code HookState}), so restarts and restores after an agent restart re-apply them without asking the plugins again.
 */
@Component
@Order(20)
public class DevicesHook implements TaskPrestartHook {

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
        Reservation reservation = allocator.prepare(allocId, task);
        return new PrestartResult(reservation.envs(), true, driverDevices(reservation));
    }

    /** The reservation's device nodes and mounts for the driver; a node without a task path keeps its host path. */
    public static List<TaskDevice> driverDevices(Reservation reservation) {
        List<TaskDevice> result = new ArrayList<>();
        reservation.devices().forEach(d -> result.add(new TaskDevice.Node(d.hostPath(), d.taskPath() == null ? d.hostPath() : d.taskPath(),
                d.cgroupPerms() == null || d.cgroupPerms().isEmpty() ? "rwm" : d.cgroupPerms())));
        reservation.mounts().forEach(m -> result.add(new TaskDevice.Mount(m.hostPath(), m.taskPath(), m.readOnly())));
        return result;
    }
}
