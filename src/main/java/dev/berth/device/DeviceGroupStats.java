package dev.berth.device;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Statistics of the instances of one device group (Nomad {@code DeviceGroupStats}).
 *
 * @param instanceStats instance ID → its latest statistics
 */
public record DeviceGroupStats(
        @JsonProperty("Vendor") String vendor,
        @JsonProperty("Type") String type,
        @JsonProperty("Name") String name,
        @JsonProperty("InstanceStats") Map<String, DeviceStats> instanceStats) {

    public DeviceGroupStats {
        instanceStats = instanceStats == null ? Map.of() : FrozenMap.copyOf(instanceStats);
    }

    public static DeviceGroupStats of(DeviceGroupKey key, Map<String, DeviceStats> instanceStats) {
        return new DeviceGroupStats(key.vendor(), key.type(), key.name(), instanceStats);
    }

    @JsonIgnore
    public DeviceGroupKey key() {
        return new DeviceGroupKey(vendor, type, name);
    }
}
