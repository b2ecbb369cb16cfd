package dev.berth.fingerprint;

import java.util.List;

import org.springframework.stereotype.Component;

import dev.berth.device.DeviceGroup;
import dev.berth.device.DeviceUpdateListener;

/**
 * Puts the device manager's complete device list into the node's {@code NodeResources.Devices} (Nomad's
 * {@code NodeDeviceResource} list), so admission and {@code /v1/node/self} see every device group and instance health.
 */
@Component
class NodeDevicesUpdater implements DeviceUpdateListener {

    private final NodeRegistry registry;

    NodeDevicesUpdater(NodeRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void devicesUpdated(List<DeviceGroup> devices) {
        List<DeviceGroup> copy = List.copyOf(devices);
        registry.update(node -> node.withResources(node.resources().withDevices(copy)));
    }
}
