package dev.berth.alloc.spec;

import java.util.List;
import java.util.Map;

/**
 * Structural checks of a group's {@code volume} blocks and its tasks' {@code volume_mount} blocks, with Nomad's texts:
 * a volume needs a source and a known type, a mount names a volume of its group and a destination. Whether the node
 * offers the source is admission's question, not this one.
 */
final class VolumeSpecs {

    /** Nomad's mount propagation modes. */
    private static final List<String> PROPAGATION_MODES = List.of("private", "host-to-task", "bidirectional");

    private VolumeSpecs() {
    }

    static void validate(TaskGroupSpec group) throws SpecValidationException {
        String g = "Job.TaskGroups[" + group.name() + "]";
        for (Map.Entry<String, VolumeSpec> e : group.volumesOrEmpty().entrySet()) {
            String f = g + ".Volumes[" + e.getKey() + "]";
            VolumeSpec v = e.getValue();
            if (v == null) {
                throw new SpecValidationException(f, "Volume " + e.getKey() + " is empty");
            }
            if ("csi".equals(v.type())) {
                throw new SpecValidationException(f + ".Type", "volume type csi is not supported by Berth: it mounts host volumes only");
            }
            if (!VolumeSpec.HOST.equals(v.type())) {
                throw new SpecValidationException(f + ".Type", "volume has unrecognized type " + v.type());
            }
            if (v.source() == null || v.source().isBlank()) {
                throw new SpecValidationException(f + ".Source", "volume has an empty source");
            }
        }
        for (TaskSpec t : group.tasks()) {
            List<VolumeMountSpec> mounts = t.volumeMountsOrEmpty();
            for (int i = 0; i < mounts.size(); i++) {
                String f = g + ".Tasks[" + t.name() + "].VolumeMounts[" + i + "]";
                VolumeMountSpec m = mounts.get(i);
                if (m == null || m.volume() == null || !group.volumesOrEmpty().containsKey(m.volume())) {
                    throw new SpecValidationException(f + ".Volume", "Volume Mount (" + i + ") references undefined volume "
                            + (m == null ? null : m.volume()));
                }
                if (m.destination() == null || m.destination().isBlank()) {
                    throw new SpecValidationException(f + ".Destination", "Volume Mount (" + i + ") has an empty destination");
                }
                // exec and raw_exec place it under the task directory: a ".." segment would leave it
                if (List.of(m.destination().split("/")).contains("..")) {
                    throw new SpecValidationException(f + ".Destination", "Volume Mount (" + i + ") destination " + m.destination()
                            + " must not contain \"..\"");
                }
                if (m.propagationMode() != null && !m.propagationMode().isEmpty() && !PROPAGATION_MODES.contains(m.propagationMode())) {
                    throw new SpecValidationException(f + ".PropagationMode", "Volume Mount (" + i + ") has an invalid propagation mode: \""
                            + m.propagationMode() + "\"");
                }
                if (m.propagationMode() != null && !m.propagationMode().isEmpty() && !"private".equals(m.propagationMode())) {
                    throw new SpecValidationException(f + ".PropagationMode", "Volume Mount (" + i + ") propagation mode "
                            + m.propagationMode() + " is not supported by Berth: it mounts host volumes private");
                }
            }
        }
    }
}
