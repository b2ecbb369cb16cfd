package dev.berth.device;

import java.util.List;

/**
 * Told the node's complete device list whenever any plugin's fingerprint or health changes. The list is the shape of
 * Nomad's {@code NodeResources.Devices} ({@code NodeDeviceResource}): the node wiring puts it there.
 *
 * <p>Called on a plugin supervisor's thread; must not block. Exceptions are logged and ignored.
 */
@FunctionalInterface
public interface DeviceUpdateListener {

    void devicesUpdated(List<DeviceGroup> devices);
}
