package dev.berth.device;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Instances of one group given to a task, in the JSON shape of Nomad's {@code AllocatedDeviceResource}
 * ({@code AllocatedResources.Tasks[task].Devices[]}): {@code {Vendor, Type, Name, DeviceIDs}}.
 */
public record AllocatedDevice(
        @JsonProperty("Vendor") String vendor,
        @JsonProperty("Type") String type,
        @JsonProperty("Name") String name,
        @JsonProperty("DeviceIDs") List<String> ids) {

    public AllocatedDevice {
        ids = ids == null ? List.of() : List.copyOf(ids);
    }

    public AllocatedDevice(DeviceGroupKey group, List<String> ids) {
        this(group.vendor(), group.type(), group.name(), ids);
    }

    @JsonIgnore
    public DeviceGroupKey group() {
        return new DeviceGroupKey(vendor, type, name);
    }
}
