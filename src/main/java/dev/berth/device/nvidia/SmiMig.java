package dev.berth.device.nvidia;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code nvidia-smi -L}: a line {@code GPU <index>: <name> (UUID: GPU-…)} per GPU, and under a GPU in MIG mode
 * one line per MIG device, {@code   MIG <profile>  Device  <n>: (UUID: MIG-…)}. Drivers before R470 wrote MIG UUIDs as
 * {@code MIG-GPU-<parent uuid>/<gpu instance>/<compute instance>}, which carries the GPU instance ID; newer ones
 * write opaque {@code MIG-<uuid>} IDs.
 */
final class SmiMig {

    private static final Pattern GPU = Pattern.compile("^GPU (\\d+): .* \\(UUID: (\\S+)\\)$");

    private static final Pattern MIG = Pattern.compile("^\\s+MIG (\\S+)\\s+Device\\s+(\\d+): \\(UUID: (\\S+)\\)$");

    private static final Pattern LEGACY_MIG_UUID = Pattern.compile("^MIG-GPU-[^/]+/(\\d+)/(\\d+)$");

    private SmiMig() {
    }

    /**
     * One MIG device.
     *
     * @param uuid          its UUID (the instance ID Berth uses)
     * @param profile       e.g. {@code 1g.5gb}
     * @param deviceIndex   its index under its GPU ({@code Device n})
     * @param gpuInstanceId the GPU instance ID when the UUID carries it (legacy form), else null
     */
    record MigDevice(String uuid, String profile, int deviceIndex, Integer gpuInstanceId) {
    }

    /** Parent GPU UUID → its MIG devices (only GPUs that list any). */
    static Map<String, List<MigDevice>> parse(String output) {
        Map<String, List<MigDevice>> byParent = new LinkedHashMap<>();
        String parent = null;
        for (String line : output.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            Matcher gpu = GPU.matcher(line.stripTrailing());
            if (gpu.matches()) {
                parent = gpu.group(2);
                continue;
            }
            Matcher mig = MIG.matcher(line.stripTrailing());
            if (mig.matches() && parent != null) {
                Matcher legacy = LEGACY_MIG_UUID.matcher(mig.group(3));
                Integer gi = legacy.matches() ? Integer.valueOf(legacy.group(1)) : null;
                byParent.computeIfAbsent(parent, (k) -> new ArrayList<>())
                        .add(new MigDevice(mig.group(3), mig.group(1), Integer.parseInt(mig.group(2)), gi));
            }
        }
        return byParent;
    }
}
