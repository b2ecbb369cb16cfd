package dev.berth.alloc.spec;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** A task's resource ask: CPU in MHz shares, memory in MB, task-level networks. */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ResourcesSpec(
        @JsonProperty("CPU") Integer cpu,
        @JsonProperty("MemoryMB") Integer memoryMb,
        @JsonProperty("MemoryMaxMB") Integer memoryMaxMb,
        @JsonProperty("Networks") List<NetworkSpec> networks) {
}
