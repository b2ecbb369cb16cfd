package dev.berth.driver.rawexec;

import java.util.List;
import java.util.Map;

import dev.berth.driver.ConfigSchema;
import dev.berth.driver.ConfigSchema.Type;
import dev.berth.driver.TaskConfigValidationException;

/**
 * raw_exec's task config.
 *
 * @param command the program (required): looked up in the task's {@code local/}, the task dir, as a host path, on {@code $PATH}
 * @param args    its arguments
 * @param workDir working directory (the task dir when empty)
 */
public record RawExecTaskConfig(String command, List<String> args, String workDir) {

    static final ConfigSchema SCHEMA = schema().build();

    public RawExecTaskConfig {
        args = args == null ? List.of() : List.copyOf(args);
        workDir = workDir == null ? "" : workDir;
    }

    /** raw_exec's keys ({@code command}, {@code args}, {@code work_dir}), for drivers that extend its config (exec). */
    public static ConfigSchema.Builder schema() {
        return ConfigSchema.builder()
                .required("command", Type.STRING)
                .optional("args", Type.STRING_LIST)
                .optional("work_dir", Type.STRING);
    }

    public static RawExecTaskConfig parse(Map<String, Object> config) throws TaskConfigValidationException {
        return from(SCHEMA.validate(config));
    }

    /** raw_exec's keys of a config validated against a schema built on {@link #schema()}; rejects a blank command. */
    public static RawExecTaskConfig from(ConfigSchema.Validated v) throws TaskConfigValidationException {
        String command = v.string("command", "");
        if (command.isBlank()) {
            throw new TaskConfigValidationException("command", "Invalid value for attribute \"command\": must not be empty");
        }
        return new RawExecTaskConfig(command, v.stringList("args"), v.string("work_dir", ""));
    }
}
