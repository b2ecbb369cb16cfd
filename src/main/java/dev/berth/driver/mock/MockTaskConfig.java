package dev.berth.driver.mock;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.berth.driver.ConfigSchema;
import dev.berth.driver.ConfigSchema.Type;
import dev.berth.driver.TaskConfigValidationException;

/**
 * The mock_driver's task config (Nomad's {@code drivers/mock} options), already validated and typed.
 *
 * @param runFor                how long the task runs before it exits by itself (zero: exits at once)
 * @param exitCode              exit code reported when the task ends (also when it is killed)
 * @param exitSignal            signal reported when the task ends
 * @param exitErrMsg            {@code ExitResult.err} (null when empty)
 * @param signalError           when non-empty, {@code signal()} fails with this message
 * @param stdoutString          written to stdout at start and then {@code stdoutRepeat} more times
 * @param stderrString          written to stderr at start and then {@code stderrRepeat} more times
 * @param stdoutRepeat          number of repetitions of {@code stdoutString}
 * @param stdoutRepeatDuration  period of the stdout repetitions
 * @param stderrRepeat          number of repetitions of {@code stderrString}
 * @param stderrRepeatDuration  period of the stderr repetitions
 * @param startError            when non-empty, {@code start()} fails with this message
 * @param startErrorRecoverable whether that start error is recoverable
 * @param startBlockFor         {@code start()} blocks this long before it returns
 * @param killAfter             {@code stop()} waits this long (ignoring timeout and signal) before the task ends
 * @param pluginExitAfter       accepted for compatibility; the in-process mock has no plugin process to exit
 * @param portMap               {@code driver_port_map} parsed as label → port
 */
public record MockTaskConfig(
        Duration runFor, int exitCode, int exitSignal, String exitErrMsg, String signalError,
        String stdoutString, String stderrString, long stdoutRepeat, Duration stdoutRepeatDuration,
        long stderrRepeat, Duration stderrRepeatDuration, String startError, boolean startErrorRecoverable,
        Duration startBlockFor, Duration killAfter, Duration pluginExitAfter, Map<String, Integer> portMap) {

    static final ConfigSchema SCHEMA = ConfigSchema.builder()
            .optional("run_for", Type.DURATION)
            .optional("exit_code", Type.NUMBER)
            .optional("exit_signal", Type.NUMBER)
            .optional("exit_err_msg", Type.STRING)
            .optional("signal_error", Type.STRING)
            .optional("stdout_string", Type.STRING)
            .optional("stderr_string", Type.STRING)
            .optional("stdout_repeat", Type.NUMBER)
            .optional("stdout_repeat_duration", Type.DURATION)
            .optional("stderr_repeat", Type.NUMBER)
            .optional("stderr_repeat_duration", Type.DURATION)
            .optional("start_error", Type.STRING)
            .optional("start_error_recoverable", Type.BOOL)
            .optional("start_block_for", Type.DURATION)
            .optional("kill_after", Type.DURATION)
            .optional("plugin_exit_after", Type.DURATION)
            .optional("driver_ip", Type.STRING)
            .optional("driver_advertise", Type.BOOL)
            .optional("driver_port_map", Type.STRING)
            .build();

    public MockTaskConfig {
        portMap = portMap == null ? Map.of() : Map.copyOf(portMap);
    }

    /** Validates {@code config} strictly and converts it. */
    public static MockTaskConfig parse(Map<String, Object> config) throws TaskConfigValidationException {
        ConfigSchema.Validated v = SCHEMA.validate(config);
        return new MockTaskConfig(
                v.duration("run_for"),
                (int) v.number("exit_code", 0),
                (int) v.number("exit_signal", 0),
                emptyToNull(v.string("exit_err_msg", "")),
                v.string("signal_error", ""),
                v.string("stdout_string", ""),
                v.string("stderr_string", ""),
                nonNegative("stdout_repeat", v.number("stdout_repeat", 0)),
                v.duration("stdout_repeat_duration"),
                nonNegative("stderr_repeat", v.number("stderr_repeat", 0)),
                v.duration("stderr_repeat_duration"),
                v.string("start_error", ""),
                v.bool("start_error_recoverable", false),
                v.duration("start_block_for"),
                v.duration("kill_after"),
                v.duration("plugin_exit_after"),
                parsePortMap(v.string("driver_port_map", "")));
    }

    private static String emptyToNull(String s) {
        return s.isEmpty() ? null : s;
    }

    private static long nonNegative(String key, long value) throws TaskConfigValidationException {
        if (value < 0) {
            throw new TaskConfigValidationException(key, "Invalid value for attribute \"" + key + "\": must not be negative, was " + value);
        }
        return value;
    }

    /** Nomad's format: comma-separated {@code label:port}; anything else is {@code malformed port map}. */
    private static Map<String, Integer> parsePortMap(String text) throws TaskConfigValidationException {
        Map<String, Integer> ports = new LinkedHashMap<>();
        if (text.isBlank()) {
            return ports;
        }
        for (String entry : text.split(",")) {
            String[] parts = entry.trim().split(":");
            try {
                if (parts.length != 2 || parts[0].isBlank()) {
                    throw new NumberFormatException(entry);
                }
                ports.put(parts[0].trim(), Integer.parseInt(parts[1].trim()));
            } catch (NumberFormatException ex) {
                throw new TaskConfigValidationException("driver_port_map", "malformed port map: \"" + entry + "\"");
            }
        }
        return ports;
    }
}
