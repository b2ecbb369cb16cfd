package dev.berth.device;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A group of identical device instances as a plugin fingerprints them, and as the node reports them in
 * {@code NodeResources.Devices} (Nomad's {@code NodeDeviceResource} has the same shape).
 *
 * @param vendor     e.g. {@code nvidia}
 * @param type       e.g. {@code gpu}
 * @param name       the model, e.g. {@code Tesla T4}
 * @param attributes typed attributes with units (null when the plugin reports none)
 * @param instances  the instances (null only in invalid plugin output)
 */
public record DeviceGroup(
        @JsonProperty("Vendor") String vendor,
        @JsonProperty("Type") String type,
        @JsonProperty("Name") String name,
        @JsonProperty("Attributes") Map<String, Attribute> attributes,
        @JsonProperty("Instances") List<DeviceInstance> instances) {

    public DeviceGroup {
        attributes = attributes == null ? null : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
        instances = instances == null ? null : java.util.Collections.unmodifiableList(new ArrayList<>(instances));
    }

    @JsonIgnore
    public DeviceGroupKey key() {
        return new DeviceGroupKey(vendor, type, name);
    }

    /**
     * Every problem that makes this group invalid (Nomad {@code DeviceGroup.Validate}); empty when valid.
     */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (vendor == null || vendor.isBlank()) {
            problems.add("device vendor must be specified");
        }
        if (type == null || type.isBlank()) {
            problems.add("device type must be specified");
        }
        if (name == null || name.isBlank()) {
            problems.add("device name must be specified");
        }
        if (instances == null) {
            problems.add("device instances must be specified");
        }
        else {
            for (int i = 0; i < instances.size(); i++) {
                DeviceInstance instance = instances.get(i);
                if (instance == null) {
                    problems.add("device instance " + i + " is null");
                }
                else if (instance.id() == null || instance.id().isBlank()) {
                    problems.add("device instance " + i + " must have an ID");
                }
            }
        }
        if (attributes != null) {
            attributes.forEach((key, attribute) -> {
                String problem = attribute == null ? "attribute is null" : attribute.problem();
                if (problem != null) {
                    problems.add("attribute \"" + key + "\" invalid: " + problem);
                }
            });
        }
        return problems;
    }

    /** The same group with every instance marked with the given health (used when the plugin fails). */
    DeviceGroup withAllInstances(boolean healthy, String description) {
        return new DeviceGroup(vendor, type, name, attributes,
                instances.stream().map((instance) -> instance.withHealth(healthy, description)).toList());
    }
}
