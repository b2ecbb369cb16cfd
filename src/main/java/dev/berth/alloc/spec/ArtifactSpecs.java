package dev.berth.alloc.spec;

import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Validation of a task's artifacts at submission (Nomad's {@code TaskArtifact.Validate}, with Nomad's texts): a source is
 * given, the mode is {@code any}, {@code file} or {@code dir}, the destination stays inside the allocation directory and a
 * {@code checksum} option is {@code type:value} with a known type and a digest of that type's length. A checksum that
 * references the environment ({@code ${…}}) is checked only when the artifact is fetched, as in Nomad.
 */
public final class ArtifactSpecs {

    /** Checksum types and their digest lengths in bytes. */
    public static final Map<String, Integer> CHECKSUM_LENGTHS = Map.of("md5", 16, "sha1", 20, "sha256", 32, "sha512", 64);

    private ArtifactSpecs() {
    }

    /** The first problem of the task's artifacts; the field names the artifact ({@code Artifacts[0]}, counted from 0). */
    public static void validate(TaskSpec task, String field) throws SpecValidationException {
        List<TaskArtifactSpec> artifacts = task.artifactsOrEmpty();
        for (int i = 0; i < artifacts.size(); i++) {
            TaskArtifactSpec a = artifacts.get(i);
            String f = field + ".Artifacts[" + i + "]";
            String problem = problem(a);
            if (problem != null) {
                throw new SpecValidationException(f + "." + problemField(problem), "Artifact " + (i + 1) + " validation failed: " + problem);
            }
        }
    }

    /** Nomad's text for the first problem of one artifact, or null. */
    static String problem(TaskArtifactSpec a) {
        if (a.source().isEmpty()) {
            return "source must be specified";
        }
        if (!List.of(TaskArtifactSpec.MODE_ANY, TaskArtifactSpec.MODE_FILE, TaskArtifactSpec.MODE_DIR).contains(a.mode())) {
            return "invalid artifact mode \"" + a.mode() + "\"; must be one of: any, file, dir";
        }
        if (escapesAllocDir(a.destination())) {
            return "destination escapes allocation directory";
        }
        String checksum = a.options().get("checksum");
        return checksum == null || checksum.contains("${") ? null : checksumProblem(checksum);
    }

    private static String problemField(String problem) {
        if (problem.startsWith("source")) {
            return "GetterSource";
        }
        if (problem.startsWith("invalid artifact mode")) {
            return "GetterMode";
        }
        return problem.startsWith("destination") ? "RelativeDest" : "GetterOptions.checksum";
    }

    /**
     * Whether a destination given relative to the task directory leaves the allocation directory ({@code ../alloc/x} is
     * inside; {@code ../../x} is not). A leading {@code /} is still relative to the task directory, as Go's
     * {@code filepath.Join} reads it.
     */
    public static boolean escapesAllocDir(String destination) {
        Path alloc = Path.of("/alloc-dir/alloc-id");
        Path joined = Path.of(alloc + "/task/" + destination).normalize();
        return !joined.startsWith(alloc);
    }

    /** Nomad's text for a malformed {@code checksum} option, or null when it is well formed. */
    public static String checksumProblem(String checksum) {
        String c = checksum.strip();
        if (c.isEmpty()) {
            return "checksum value cannot be empty";
        }
        String[] parts = c.split(":", -1);
        if (parts.length != 2) {
            return "checksum must be given as \"type:value\"; got \"" + c + "\"";
        }
        byte[] digest;
        try {
            digest = HexFormat.of().parseHex(parts[1]);
        } catch (IllegalArgumentException e) {
            return "invalid checksum: " + e.getMessage();
        }
        Integer expected = CHECKSUM_LENGTHS.get(parts[0]);
        if (expected == null) {
            return "unsupported checksum type: " + parts[0];
        }
        return digest.length == expected ? null : "invalid " + parts[0] + " checksum: " + parts[1];
    }
}
