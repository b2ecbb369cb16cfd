package dev.berth.driver.exec;

import java.util.List;
import java.util.Map;

import dev.berth.driver.ConfigSchema;
import dev.berth.driver.ConfigSchema.Type;
import dev.berth.driver.TaskConfigValidationException;

/**
 * The exec driver's task config: raw_exec's keys plus a per-task pids limit.
 *
 * @param command   the program (required), looked up like raw_exec does
 * @param args      its arguments
 * @param workDir   working directory (the task dir when empty)
 * @param pidsLimit most processes/threads the task may have; 0 = the driver's default
 */
public record ExecTaskConfig(String command, List<String> args, String workDir, long pidsLimit) {

    static final ConfigSchema SCHEMA = ConfigSchema.builder()
            .required("command", Type.STRING)
            .optional("args", Type.STRING_LIST)
            .optional("work_dir", Type.STRING)
            .optional("pids_limit", Type.NUMBER)
            .build();

    public ExecTaskConfig {
        args = args == null ? List.of() : List.copyOf(args);
        workDir = workDir == null ? "" : workDir;
    }

    public static ExecTaskConfig parse(Map<String, Object> config) throws TaskConfigValidationException {
        ConfigSchema.Validated v = SCHEMA.validate(config);
        String command = v.string("command", "");
        if (command.isBlank()) {
            throw new TaskConfigValidationException("command", "Invalid value for attribute \"command\": must not be empty");
        }
        long pids = v.number("pids_limit", 0);
        if (pids < 0) {
            throw new TaskConfigValidationException("pids_limit", "Invalid value for attribute \"pids_limit\": must not be negative");
        }
        return new ExecTaskConfig(command, v.stringList("args"), v.string("work_dir", ""), pids);
    }
}
