package dev.berth.driver.docker;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.berth.driver.ConfigSchema;
import dev.berth.driver.ConfigSchema.Type;
import dev.berth.driver.TaskConfigValidationException;

/**
 * The docker driver's task config, parsed from a task's {@code Config} map.
 *
 * @param image           image reference (required), e.g. {@code berth-test/busybox:1}
 * @param command         replaces the image's CMD (with {@code args} appended); null keeps the image's
 * @param args            arguments after {@code command}
 * @param entrypoint      replaces the image's ENTRYPOINT; empty keeps the image's
 * @param env             extra environment; wins over the task environment
 * @param labels          extra container labels
 * @param networkMode     Docker network mode, {@code none} by default
 * @param volumes         bind mounts
 * @param workDir         working directory inside the container, or null
 * @param memoryHardLimitMb hard memory limit in MB (0 = use the task's {@code MemoryMaxMB}/{@code MemoryMB})
 */
public record DockerTaskConfig(
        String image,
        String command,
        List<String> args,
        List<String> entrypoint,
        Map<String, String> env,
        Map<String, String> labels,
        String networkMode,
        List<Volume> volumes,
        String workDir,
        long memoryHardLimitMb) {

    public static final String DEFAULT_NETWORK_MODE = "none";

    /** The keys the shared schema checks; the map-valued {@code env} and {@code labels} are checked here. */
    static final ConfigSchema SCHEMA = ConfigSchema.builder()
            .required("image", Type.STRING)
            .optional("command", Type.STRING)
            .optional("args", Type.STRING_LIST)
            .optional("entrypoint", Type.STRING_LIST)
            .optional("network_mode", Type.STRING)
            .optional("volumes", Type.STRING_LIST)
            .optional("work_dir", Type.STRING)
            .optional("memory_hard_limit", Type.NUMBER)
            .build();

    private static final List<String> MAP_KEYS = List.of("env", "labels");

    public DockerTaskConfig {
        Objects.requireNonNull(image, "'image' must not be null");
        args = List.copyOf(args);
        entrypoint = List.copyOf(entrypoint);
        env = Map.copyOf(env);
        labels = Map.copyOf(labels);
        volumes = List.copyOf(volumes);
    }

    /**
     * A bind mount {@code host:container[:ro|rw]}.
     *
     * @param hostPath      host side; relative paths are resolved against the task directory
     * @param containerPath absolute path inside the container
     * @param readOnly      mounted read-only
     */
    public record Volume(String hostPath, String containerPath, boolean readOnly) {

        static Volume parse(String spec) throws TaskConfigValidationException {
            String[] parts = spec.split(":", -1);
            boolean readOnly = false;
            if (parts.length == 3) {
                if (!parts[2].equals("ro") && !parts[2].equals("rw")) {
                    throw invalid(spec, "mode must be 'ro' or 'rw'");
                }
                readOnly = parts[2].equals("ro");
            } else if (parts.length != 2) {
                throw invalid(spec, "expected host:container[:ro]");
            }
            if (parts[0].isBlank()) {
                throw invalid(spec, "the host path is empty");
            }
            if (!parts[1].startsWith("/")) {
                throw invalid(spec, "the container path must be absolute");
            }
            return new Volume(parts[0], parts[1], readOnly);
        }

        /** The host path, relative ones resolved against {@code taskDir}. */
        public Path hostPath(Path taskDir) {
            Path host = Path.of(hostPath);
            return host.isAbsolute() || taskDir == null ? host : taskDir.resolve(host).normalize();
        }

        private static TaskConfigValidationException invalid(String spec, String why) {
            return new TaskConfigValidationException("volumes", "Invalid volume \"" + spec + "\": " + why + ".");
        }
    }

    /** Validates {@code config} strictly (Nomad's HCL diagnostics, see {@link ConfigSchema}) and parses it. */
    public static DockerTaskConfig parse(Map<String, Object> config) throws TaskConfigValidationException {
        Map<String, Object> given = config == null ? Map.of() : config;
        Map<String, Object> scalars = new LinkedHashMap<>(given);
        MAP_KEYS.forEach(scalars::remove);
        ConfigSchema.Validated v = SCHEMA.validate(scalars);
        Map<String, String> env = stringMap("env", given.get("env"));
        Map<String, String> labels = stringMap("labels", given.get("labels"));
        String image = v.string("image", "");
        if (image.isBlank()) {
            throw new TaskConfigValidationException("image", "Invalid value for attribute \"image\": must not be empty");
        }
        List<Volume> volumes = new ArrayList<>();
        for (String spec : v.stringList("volumes")) {
            volumes.add(Volume.parse(spec));
        }
        String networkMode = v.string("network_mode", "");
        long hardLimit = v.number("memory_hard_limit", 0);
        if (hardLimit < 0) {
            throw new TaskConfigValidationException("memory_hard_limit", "Invalid value for attribute \"memory_hard_limit\": must not be negative");
        }
        String workDir = v.string("work_dir", "");
        return new DockerTaskConfig(image, v.has("command") ? v.string("command", "") : null, v.stringList("args"),
                v.stringList("entrypoint"), env, labels, networkMode.isBlank() ? DEFAULT_NETWORK_MODE : networkMode, volumes,
                workDir.isBlank() ? null : workDir, hardLimit);
    }

    /** The container's CMD: {@code command} followed by {@code args}, or just {@code args} when there is no command. */
    public List<String> cmd() {
        List<String> cmd = new ArrayList<>();
        if (command != null) {
            cmd.add(command);
        }
        cmd.addAll(args);
        return cmd;
    }

    private static Map<String, String> stringMap(String key, Object value) throws TaskConfigValidationException {
        if (value == null) {
            return Map.of();
        }
        if (!(value instanceof Map<?, ?> map)
                || !map.values().stream().allMatch(x -> x instanceof String || x instanceof Number || x instanceof Boolean)) {
            throw new TaskConfigValidationException(key, "Incorrect attribute value type; Inappropriate value for attribute \""
                    + key + "\": a map of string is required.");
        }
        Map<String, String> out = new LinkedHashMap<>();
        map.forEach((k, x) -> out.put(String.valueOf(k), String.valueOf(x)));
        return out;
    }
}
