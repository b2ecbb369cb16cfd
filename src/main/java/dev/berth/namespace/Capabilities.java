package dev.berth.namespace;

import java.util.ArrayList;
import java.util.List;

/**
 * Nomad's namespace capabilities (community edition): which task drivers and group network modes a job in the namespace
 * may use. An empty enabled list allows every one not disabled; a disabled one is refused even when enabled.
 */
public record Capabilities(List<String> enabledTaskDrivers, List<String> disabledTaskDrivers, List<String> enabledNetworkModes,
                           List<String> disabledNetworkModes) {

    public Capabilities {
        enabledTaskDrivers = copy(enabledTaskDrivers);
        disabledTaskDrivers = copy(disabledTaskDrivers);
        enabledNetworkModes = copy(enabledNetworkModes);
        disabledNetworkModes = copy(disabledNetworkModes);
    }

    private static List<String> copy(List<String> l) {
        return l == null ? null : List.copyOf(l);
    }

    static boolean allows(List<String> enabled, List<String> disabled, String value) {
        boolean allow = enabled == null || enabled.isEmpty() || enabled.contains(value);
        return allow && (disabled == null || !disabled.contains(value));
    }

    /** Those of {@code drivers} (one per task) the namespace does not allow, in order. */
    List<String> refusedDrivers(List<String> drivers) {
        return refused(drivers, enabledTaskDrivers, disabledTaskDrivers);
    }

    /** Those of {@code modes} (one per group network; {@code host} when unset) the namespace does not allow, in order. */
    List<String> refusedNetworkModes(List<String> modes) {
        return refused(modes, enabledNetworkModes, disabledNetworkModes);
    }

    private static List<String> refused(List<String> values, List<String> enabled, List<String> disabled) {
        List<String> out = new ArrayList<>();
        values.stream().filter((v) -> !allows(enabled, disabled, v)).forEach(out::add);
        return out;
    }
}
