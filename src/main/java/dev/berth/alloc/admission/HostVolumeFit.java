package dev.berth.alloc.admission;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.VolumeSpec;
import dev.berth.fingerprint.HostVolume;

/**
 * Whether the node offers every host volume a task group asks for (Nomad's host volume feasibility check): the
 * {@code source} must be one of the node's host volumes, and a volume the group wants writable must not be read-only
 * on the node.
 */
public final class HostVolumeFit {

    /** Nomad's placement failure reason (a {@code ConstraintFiltered} key) for a group whose host volumes the node lacks. */
    public static final String CONSTRAINT = "missing compatible host volumes";

    private HostVolumeFit() {
    }

    /** Refuses {@code group} when the node lacks one of its host volumes. */
    static void check(TaskGroupSpec group, Function<String, Optional<HostVolume>> node) throws AdmissionException {
        for (Map.Entry<String, VolumeSpec> e : group.volumesOrEmpty().entrySet()) {
            VolumeSpec v = e.getValue();
            if (!VolumeSpec.HOST.equals(v.type())) {
                continue;
            }
            String why = unmet(v.source(), v.readOnlyOrFalse(), node);
            if (why != null) {
                throw new AdmissionException("host_volumes", CONSTRAINT + ": volume \"" + e.getKey() + "\" " + why);
            }
        }
    }

    /** Why the node cannot give {@code source} ({@code readOnly} or writable) to a group, or null when it can. */
    public static String unmet(String source, boolean readOnly, Function<String, Optional<HostVolume>> node) {
        Optional<HostVolume> offered = node.apply(source);
        if (offered.isEmpty()) {
            return "asks for host volume \"" + source + "\", which this node does not have";
        }
        if (offered.get().readOnly() && !readOnly) {
            return "asks for host volume \"" + source + "\" writable, which is read-only on this node";
        }
        return null;
    }
}
