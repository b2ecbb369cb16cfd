package dev.berth.namespace;

import java.util.Map;
import java.util.Set;

/**
 * A namespace as a client submits it ({@code PUT /v1/namespace}): {@code quota} as given (Nomad's community edition has
 * no quota to name), and {@code configured} the names of the other fields that were set, for those Berth does not
 * have ({@code NodePoolConfiguration}, {@code VaultConfiguration}, {@code ConsulConfiguration},
 * {@code RequiredExtraClaims}, {@code OptionalExtraClaims}).
 */
public record NamespaceUpsert(String name, String description, String quota, Map<String, String> meta, Capabilities capabilities,
                              Set<String> configured) {

    public NamespaceUpsert {
        name = name == null ? "" : name;
        description = description == null ? "" : description;
        quota = quota == null ? "" : quota;
        configured = Set.copyOf(configured);
    }
}
