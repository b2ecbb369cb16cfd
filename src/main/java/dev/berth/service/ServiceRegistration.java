package dev.berth.service;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Nomad's {@code ServiceRegistration} (native service discovery) plus {@code Health}, a Berth addition Nomad clients
 * ignore: {@code success} when every check of the registration passes, {@code failure} when one fails, {@code pending}
 * before every check has a result, {@code null} without checks. {@code ID} is Nomad's
 * {@code _nomad-task-<alloc>-<task or group-<group>>-<service>-<port label>}.
 */
public record ServiceRegistration(
        @JsonProperty("ID") String id,
        @JsonProperty("ServiceName") String serviceName,
        @JsonProperty("Namespace") String namespace,
        @JsonProperty("NodeID") String nodeId,
        @JsonProperty("Datacenter") String datacenter,
        @JsonProperty("JobID") String jobId,
        @JsonProperty("AllocID") String allocId,
        @JsonProperty("Tags") List<String> tags,
        @JsonProperty("Address") String address,
        @JsonProperty("Port") int port,
        @JsonProperty("CreateIndex") long createIndex,
        @JsonProperty("ModifyIndex") long modifyIndex,
        @JsonProperty("Health") String health) {

    ServiceRegistration withIndexes(long create, long modify) {
        return new ServiceRegistration(id, serviceName, namespace, nodeId, datacenter, jobId, allocId, tags, address, port, create,
                modify, health);
    }

    ServiceRegistration withHealth(String newHealth) {
        return new ServiceRegistration(id, serviceName, namespace, nodeId, datacenter, jobId, allocId, tags, address, port, createIndex,
                modifyIndex, newHealth);
    }

    /** Whether the two differ in anything but their indexes. */
    boolean sameAs(ServiceRegistration o) {
        return o != null && withIndexes(0, 0).equals(o.withIndexes(0, 0));
    }
}
