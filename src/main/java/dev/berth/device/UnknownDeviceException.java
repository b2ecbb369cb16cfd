package dev.berth.device;

import java.util.List;

/**
 * No plugin holds all the requested instances in one group. The message is Nomad's {@code UnknownDeviceError} text:
 * {@code operation on unknown device(s) "vendor/type/name" ([id1 id2]): failed to reserve devices}.
 */
public class UnknownDeviceException extends DeviceException {

    public UnknownDeviceException(DeviceGroupKey group, List<String> ids) {
        super("operation on unknown device(s) \"" + (group == null ? "//" : group.toString()) + "\" ([" + String.join(" ", ids)
                + "]): failed to reserve devices");
    }
}
