package dev.berth.device;

import java.util.List;

/**
 * Instances of one group given to a task (Nomad {@code AllocatedDeviceResource}: Vendor, Type, Name, DeviceIDs).
 */
public record AllocatedDevice(DeviceGroupKey group, List<String> ids) {

    public AllocatedDevice {
        ids = List.copyOf(ids);
    }
}
