package dev.berth.driver.docker;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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

    static final ConfigSchema SCHEMA = ConfigSchema.builder()
            .required("image", ConfigSchema.Type.STRING)
            .optional("command", ConfigSchema.Type.STRING)
            .optional("args", ConfigSchema.Type.LIST_OF_STRING)
            .optional("entrypoint", ConfigSchema.Type.LIST_OF_STRING)
            .optional("env", ConfigSchema.Type.MAP_OF_STRING)
            .optional("labels", ConfigSchema.Type.MAP_OF_STRING)
            .optional("network_mode", ConfigSchema.Type.STRING)
            .optional("volumes", ConfigSchema.Type.LIST_OF_STRING)
            .optional("work_dir", ConfigSchema.Type.STRING)
            .optional("memory_hard_limit", ConfigSchema.Type.NUMBER)
            .build();

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

    /** Validates {@code config} strictly and parses it. */
    public static DockerTaskConfig parse(Map<String, Object> config) throws TaskConfigValidationException {
        SCHEMA.validate(config);
        String image = string(config.get("image"));
        if (image.isBlank()) {
            throw new TaskConfigValidationException("image", "Invalid value for \"image\": must not be empty.");
        }
        List<Volume> volumes = new ArrayList<>();
        for (String spec : strings(config.get("volumes"))) {
            volumes.add(Volume.parse(spec));
        }
        String networkMode = config.get("network_mode") == null ? DEFAULT_NETWORK_MODE : string(config.get("network_mode"));
        if (networkMode.isBlank()) {
            networkMode = DEFAULT_NETWORK_MODE;
        }
        long hardLimit = config.get("memory_hard_limit") == null ? 0 : (long) Double.parseDouble(config.get("memory_hard_limit").toString());
        if (hardLimit < 0) {
            throw new TaskConfigValidationException("memory_hard_limit", "Invalid value for \"memory_hard_limit\": must not be negative.");
        }
        String workDir = config.get("work_dir") == null ? null : string(config.get("work_dir"));
        return new DockerTaskConfig(image, config.get("command") == null ? null : string(config.get("command")),
                strings(config.get("args")), strings(config.get("entrypoint")), stringMap(config.get("env")),
                stringMap(config.get("labels")), networkMode, volumes, workDir == null || workDir.isBlank() ? null : workDir, hardLimit);
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

    private static String string(Object value) {
        return String.valueOf(value);
    }

    private static List<String> strings(Object value) {
        if (value == null) {
            return List.of();
        }
        return ((List<?>) value).stream().map(String::valueOf).toList();
    }

    private static Map<String, String> stringMap(Object value) {
        if (value == null) {
            return Map.of();
        }
        Map<String, String> map = new LinkedHashMap<>();
        ((Map<?, ?>) value).forEach((k, v) -> map.put(String.valueOf(k), String.valueOf(v)));
        return map;
    }
}
