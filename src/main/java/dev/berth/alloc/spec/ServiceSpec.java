package dev.berth.alloc.spec;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A group or task {@code Service} as Nomad's job JSON carries it. Only {@code Provider: "nomad"} services are run by this
 * agent (registered in the node-local registry, checks probed); Consul services are accepted and left alone.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ServiceSpec(
        @JsonProperty("Name") String name,
        @JsonProperty("TaskName") String taskName,
        @JsonProperty("PortLabel") String portLabel,
        @JsonProperty("AddressMode") String addressMode,
        @JsonProperty("Address") String address,
        @JsonProperty("Tags") List<String> tags,
        @JsonProperty("Checks") List<ServiceCheckSpec> checks,
        @JsonProperty("Meta") Map<String, String> meta,
        @JsonProperty("OnUpdate") String onUpdate,
        @JsonProperty("Provider") String provider) {

    public static final String PROVIDER_NOMAD = "nomad";
    public static final String PROVIDER_CONSUL = "consul";

    /** Whether this agent runs the service (Nomad's native service discovery). */
    @JsonIgnore
    public boolean isNomad() {
        return PROVIDER_NOMAD.equals(provider);
    }

    @JsonIgnore
    public List<ServiceCheckSpec> checksOrEmpty() {
        return checks == null ? List.of() : checks;
    }

    @JsonIgnore
    public List<String> tagsOrEmpty() {
        return tags == null ? List.of() : tags;
    }
}
