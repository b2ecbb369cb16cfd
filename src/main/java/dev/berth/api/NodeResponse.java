package dev.berth.api;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonProperty;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

import dev.berth.device.DeviceGroup;
import dev.berth.fingerprint.DriverInfo;
import dev.berth.fingerprint.Node;
import dev.berth.fingerprint.NodeEvent;
import dev.berth.fingerprint.NodeResources;

/**
 * {@code GET /v1/node/:id}: Nomad's {@code Node} JSON (PascalCase, {@code null} for unset collections, times as
 * RFC 3339 strings, {@code StatusUpdatedAt} in Unix seconds, {@code SecretID} blanked as by Nomad's Sanitize).
 */
@JsonNaming(PropertyNamingStrategies.UpperCamelCaseStrategy.class)
record NodeResponse(
        @JsonProperty("ID") String id,
        @JsonProperty("SecretID") String secretId,
        String datacenter,
        String name,
        String cgroupParent,
        @JsonProperty("HTTPAddr") String httpAddr,
        @JsonProperty("TLSEnabled") boolean tlsEnabled,
        Map<String, String> attributes,
        Resources nodeResources,
        Reserved reservedResources,
        Map<String, String> links,
        Map<String, String> meta,
        String nodeClass,
        String nodePool,
        String computedClass,
        NodeDrainJson.Strategy drainStrategy,
        String schedulingEligibility,
        String status,
        String statusDescription,
        long statusUpdatedAt,
        List<Event> events,
        Map<String, Driver> drivers,
        @JsonProperty("CSIControllerPlugins") Map<String, Object> csiControllerPlugins,
        @JsonProperty("CSINodePlugins") Map<String, Object> csiNodePlugins,
        Map<String, Volume> hostVolumes,
        Map<String, Object> hostNetworks,
        NodeDrainJson.Last lastDrain,
        int nodeMaxAllocs,
        long createIndex,
        long modifyIndex) {

    static NodeResponse of(Node node, String httpAddr) {
        return new NodeResponse(node.id(), "", node.datacenter(), node.name(), "", httpAddr, false,
                nullIfEmpty(node.attributes()), Resources.of(node.resources()), Reserved.ZERO,
                nullIfEmpty(node.links()), nullIfEmpty(node.meta()), node.nodeClass(), "default", "",
                NodeDrainJson.Strategy.of(node.scheduling().drain()), node.scheduling().eligibility(),
                node.status().wireName(), "", node.statusUpdatedAt().getEpochSecond(),
                node.events().isEmpty() ? null : node.events().stream().map(Event::of).toList(),
                node.drivers().isEmpty() ? null : node.drivers().entrySet().stream().collect(
                        Collectors.toMap(Map.Entry::getKey, e -> Driver.of(e.getValue()),
                                (a, b) -> a, TreeMap::new)),
                null, null, node.hostVolumes().isEmpty() ? null : node.hostVolumes().entrySet().stream().collect(
                        Collectors.toMap(Map.Entry::getKey, e -> Volume.of(e.getValue()), (a, b) -> a, TreeMap::new)),
                null, NodeDrainJson.Last.of(node.scheduling().lastDrain()), 0, 1, node.modifyIndex());
    }

    /** Nomad's {@code ClientHostVolumeConfig}; {@code ID} is empty for a volume from the agent's configuration. */
    @JsonNaming(PropertyNamingStrategies.UpperCamelCaseStrategy.class)
    record Volume(String name, String path, boolean readOnly, @JsonProperty("ID") String id) {

        static Volume of(dev.berth.fingerprint.HostVolume v) {
            return new Volume(v.name(), v.path(), v.readOnly(), v.id());
        }
    }

    static <V> Map<String, V> nullIfEmpty(Map<String, V> map) {
        return map == null || map.isEmpty() ? null : map;
    }

    @JsonNaming(PropertyNamingStrategies.UpperCamelCaseStrategy.class)
    record Resources(Cpu cpu, Memory memory, Disk disk, List<DeviceGroup> devices, List<Object> nodeNetworks,
                     List<Object> networks, int minDynamicPort, int maxDynamicPort) {

        static Resources of(NodeResources r) {
            NodeResources.Cpu cpu = r.cpu();
            return new Resources(
                    cpu == null ? new Cpu(0, 0, null)
                            : new Cpu(cpu.cpuShares(), cpu.totalCpuCores(),
                                    cpu.reservableCpuCores().isEmpty() ? null : cpu.reservableCpuCores()),
                    new Memory(r.memory() == null ? 0 : r.memory().memoryMb()),
                    new Disk(r.disk() == null ? 0 : r.disk().diskMb()),
                    r.devices().isEmpty() ? null : r.devices(), null, null, r.minDynamicPort(), r.maxDynamicPort());
        }
    }

    @JsonNaming(PropertyNamingStrategies.UpperCamelCaseStrategy.class)
    record Cpu(long cpuShares, int totalCpuCores, List<Integer> reservableCpuCores) {
    }

    record Memory(@JsonProperty("MemoryMB") long memoryMb) {
    }

    record Disk(@JsonProperty("DiskMB") long diskMb) {
    }

    /** Nomad's {@code NodeReservedResources}; Berth reserves nothing for the host yet. */
    record Reserved(@JsonProperty("Cpu") ReservedCpu cpu, @JsonProperty("Memory") Memory memory,
                    @JsonProperty("Disk") Disk disk, @JsonProperty("Networks") ReservedNetworks networks) {
        static final Reserved ZERO = new Reserved(new ReservedCpu(0, null), new Memory(0), new Disk(0),
                new ReservedNetworks(""));
    }

    record ReservedCpu(@JsonProperty("CpuShares") long cpuShares,
                       @JsonProperty("ReservedCpuCores") List<Integer> reservedCpuCores) {
    }

    record ReservedNetworks(@JsonProperty("ReservedHostPorts") String reservedHostPorts) {
    }

    @JsonNaming(PropertyNamingStrategies.UpperCamelCaseStrategy.class)
    record Event(String message, String subsystem, Map<String, String> details, String timestamp, long createIndex) {
        static Event of(NodeEvent e) {
            return new Event(e.message(), e.subsystem(), nullIfEmpty(e.details()), e.timestamp().toString(), 0);
        }
    }

    @JsonNaming(PropertyNamingStrategies.UpperCamelCaseStrategy.class)
    record Driver(Map<String, String> attributes, boolean detected, boolean healthy, String healthDescription,
                  String updateTime) {
        static Driver of(DriverInfo d) {
            return new Driver(nullIfEmpty(d.attributes()), d.detected(), d.healthy(), d.healthDescription(),
                    d.updateTime().toString());
        }
    }
}
