package dev.berth.volume;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Nomad's checks of a dynamic host volume request ({@code HostVolume.Validate} and {@code ValidateUpdate}), with its
 * error texts: several failures are listed the way Nomad's multierror lists them.
 */
final class HostVolumeRules {

    private static final Pattern UUID = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Set<String> ATTACHMENT_MODES = Set.of("block-device", "file-system");
    private static final Set<String> ACCESS_MODES = Set.of("single-node-reader-only", "single-node-writer",
            "single-node-single-writer", "single-node-multi-writer");

    private HostVolumeRules() {
    }

    /** What is wrong with the volume's own fields (empty when nothing), in Nomad's order. */
    static List<String> validate(DynamicHostVolume v) {
        List<String> errors = new ArrayList<>();
        if (!v.id().isEmpty() && !UUID.matcher(v.id()).matches()) {
            errors.add("invalid ID " + quote(v.id()));
        }
        if (v.name().isEmpty()) {
            errors.add("missing name");
        }
        if (v.requestedCapacityMaxBytes() < v.requestedCapacityMinBytes()) {
            errors.add("capacity_max (" + v.requestedCapacityMaxBytes() + ") must be larger than capacity_min ("
                    + v.requestedCapacityMinBytes() + ")");
        }
        for (DynamicHostVolume.Capability c : v.requestedCapabilities()) {
            if (!ATTACHMENT_MODES.contains(c.attachmentMode())) {
                errors.add("invalid attachment mode: " + quote(c.attachmentMode()));
            } else if (!ACCESS_MODES.contains(c.accessMode())) {
                errors.add("invalid access mode: " + quote(c.accessMode()));
            }
        }
        for (DynamicHostVolume.Constraint c : v.constraints()) {
            if ("distinct_hosts".equals(c.operand()) || "distinct_property".equals(c.operand())) {
                errors.add("invalid constraint " + c.operand() + ": host volumes of the same name are always on distinct hosts");
            }
        }
        return errors;
    }

    /** What forbids changing {@code existing} into {@code v} (empty when nothing). */
    static List<String> validateUpdate(DynamicHostVolume v, DynamicHostVolume existing, List<String> claims) {
        List<String> errors = new ArrayList<>();
        if (!claims.isEmpty()) {
            errors.add("cannot update a volume in use: claimed by allocs (" + String.join(", ", claims) + ")");
        }
        if (!v.nodeId().isEmpty() && !v.nodeId().equals(existing.nodeId())) {
            errors.add("node ID cannot be updated");
        }
        if (!v.nodePool().isEmpty() && !v.nodePool().equals(existing.nodePool())) {
            errors.add("node pool cannot be updated");
        }
        if (v.requestedCapacityMaxBytes() > 0 && v.requestedCapacityMaxBytes() < existing.capacityBytes()) {
            errors.add("capacity_max (" + v.requestedCapacityMaxBytes() + ") cannot be less than existing provisioned capacity ("
                    + existing.capacityBytes() + ")");
        }
        return errors;
    }

    /** One error as itself, several as Nomad's multierror lists them. */
    static String flatten(List<String> errors) {
        return errors.size() == 1 ? errors.getFirst() : listed(errors);
    }

    /** Nomad's multierror text, also for a single error: {@code 1 error occurred:\n\t* …\n\n}. */
    static String listed(List<String> errors) {
        StringBuilder out = new StringBuilder();
        out.append(errors.size()).append(errors.size() == 1 ? " error occurred:\n" : " errors occurred:\n");
        errors.forEach(e -> out.append("\t* ").append(e).append('\n'));
        return out.append('\n').toString();
    }

    /** A string as Go's {@code %q} writes it. */
    static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
