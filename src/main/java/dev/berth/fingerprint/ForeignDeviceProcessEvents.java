package dev.berth.fingerprint;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.stereotype.Component;

import dev.berth.device.DeviceGroupKey;
import dev.berth.device.DeviceProcess;
import dev.berth.device.ForeignProcessListener;
import dev.berth.device.TaskRef;

/**
 * A process on a reserved device instance that belongs to no task of the holding allocation becomes a node event
 * (subsystem {@value #SUBSYSTEM}), once per process and instance while it stays there.
 */
@Component
class ForeignDeviceProcessEvents implements ForeignProcessListener {

    static final String SUBSYSTEM = "Device";

    private final NodeRegistry registry;

    ForeignDeviceProcessEvents(NodeRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void foreignProcess(String instanceId, DeviceGroupKey group, DeviceProcess process, TaskRef holder) {
        Map<String, String> details = new LinkedHashMap<>();
        details.put("device", instanceId);
        details.put("device_group", group.vendor() + "/" + group.type() + "/" + group.name());
        details.put("pid", Long.toString(process.pid()));
        if (process.usedMemoryMib() != null) {
            details.put("used_memory_mib", Long.toString(process.usedMemoryMib()));
        }
        details.put("alloc_id", holder.allocId());
        details.put("job", holder.job());
        details.put("task", holder.task());
        registry.addEvent(SUBSYSTEM, "Foreign process " + process.pid() + " on device " + instanceId + " reserved by allocation "
                + holder.allocId() + " task " + holder.task(), details);
    }
}
