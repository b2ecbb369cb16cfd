package dev.berth.alloc.spec;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

/** Task lifecycle: {@code Hook} prestart, poststart or poststop; {@code Sidecar} keeps it running alongside main tasks. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record LifecycleSpec(@JsonProperty("Hook") String hook, @JsonProperty("Sidecar") Boolean sidecar) {
}
