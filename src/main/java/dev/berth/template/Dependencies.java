package dev.berth.template;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What one render read, so the hook knows what to wait for: whether it read variables or services (a later change of
 * those re-renders), and the variables it needed that did not exist yet (consul-template blocks on those; their names
 * are Nomad's {@code nomad.var.block(<path>@<namespace>.global)}). Not thread-safe: one per render.
 */
final class Dependencies {

    private final Set<String> missing = new LinkedHashSet<>();
    private boolean variables;
    private boolean services;

    void readVariables() {
        variables = true;
    }

    void readServices() {
        services = true;
    }

    void missingVariable(String path, String namespace) {
        variables = true;
        missing.add("nomad.var.block(" + path + "@" + namespace + ".global)");
    }

    boolean readsVariables() {
        return variables;
    }

    boolean readsServices() {
        return services;
    }

    List<String> missing() {
        return new ArrayList<>(missing);
    }

    /** Adds what another render read. */
    void addAll(Dependencies other) {
        variables |= other.variables;
        services |= other.services;
        missing.addAll(other.missing);
    }
}
