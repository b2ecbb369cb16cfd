package dev.berth.device;

import java.util.Objects;

/** Identifies a device group: {@code vendor/type/name}, as in Nomad's {@code DeviceIdTuple}. */
public record DeviceGroupKey(String vendor, String type, String name) {

    public DeviceGroupKey {
        Objects.requireNonNull(vendor, "'vendor' must not be null");
        Objects.requireNonNull(type, "'type' must not be null");
        Objects.requireNonNull(name, "'name' must not be null");
    }

    @Override
    public String toString() {
        return vendor + "/" + type + "/" + name;
    }
}
