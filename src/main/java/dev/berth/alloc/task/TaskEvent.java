package dev.berth.alloc.task;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.berth.alloc.spec.TaskSize;
import dev.berth.driver.ExitResult;
import dev.berth.driver.GoDuration;

/**
 * One Nomad task event. {@code type} is Nomad's exact type string ({@link #RECEIVED}, …); {@code details} holds Nomad's
 * detail keys ({@code exit_code}, {@code restart_reason}, …) exactly as Nomad's setters write them, so the API can render
 * the typed fields ({@code ExitCode}, {@code RestartReason}, …) and {@code Details} from one source.
 *
 * @param type          Nomad event type
 * @param time          when it happened
 * @param message       free-form message (Nomad's {@code Message})
 * @param details       Nomad detail keys, string-valued
 * @param failsTask     whether this event fails the task
 * @param exitCode      exit code (Terminated)
 * @param signal        signal number (Terminated)
 * @param killTimeoutNs kill timeout in ns (Killing)
 * @param startDelayNs  restart delay in ns (Restarting)
 */
public record TaskEvent(String type, Instant time, String message, Map<String, String> details, boolean failsTask,
                        int exitCode, int signal, long killTimeoutNs, long startDelayNs) {

    /** The exit message of a task the kernel OOM killer ended (Nomad's docker driver text). */
    public static final String OOM_KILLED = "OOM Killed";
    public static final String RECEIVED = "Received";
    public static final String TASK_SETUP = "Task Setup";
    public static final String SETUP_FAILURE = "Setup Failure";
    public static final String DRIVER_FAILURE = "Driver Failure";
    public static final String FAILED_VALIDATION = "Failed Validation";
    public static final String STARTED = "Started";
    public static final String TERMINATED = "Terminated";
    public static final String KILLING = "Killing";
    public static final String KILLED = "Killed";
    public static final String RESTARTING = "Restarting";
    public static final String NOT_RESTARTING = "Not Restarting";
    public static final String RESTART_SIGNALED = "Restart Signaled";
    public static final String SIGNALING = "Signaling";
    /** The running task was given a new size in place, without a restart (Berth's type: Nomad replaces the task). */
    public static final String RESIZED = "Resized";
    /** An {@code alloc exec} session was started (Berth's type; Nomad emits no event for exec). */
    public static final String EXEC = "Exec";
    /** The task's cgroup throttled it at {@code memory.high} in a burst (Berth's type; details hold the counts). */
    public static final String MEMORY_THROTTLED = "Memory Throttled";
    public static final String SIBLING_FAILED = "Sibling Task Failed";
    public static final String LEADER_DEAD = "Leader Task Dead";
    public static final String MAIN_DEAD = "Main Tasks Dead";
    public static final String HOOK_FAILED = "Task hook failed";
    public static final String FAILED_RESTORING = "Failed Restoring Task";
    public static final String DOWNLOADING_ARTIFACTS = "Downloading Artifacts";
    public static final String ARTIFACT_DOWNLOAD_FAILED = "Failed Artifact Download";
    public static final String BUILDING_TASK_DIR = "Building Task Directory";
    /** Berth's detail key naming the exit rule of the restart policy that decided a restart or its absence. */
    public static final String RESTART_RULE = "restart_rule";

    public TaskEvent {
        Objects.requireNonNull(type, "'type' must not be null");
        Objects.requireNonNull(time, "'time' must not be null");
        message = message == null ? "" : message;
        details = details == null ? Map.of() : Map.copyOf(details);
    }

    private static TaskEvent of(String type, Instant time, String message, Map<String, String> details, boolean fails) {
        return new TaskEvent(type, time, message, details, fails, 0, 0, 0, 0);
    }

    public static TaskEvent received(Instant now) {
        return of(RECEIVED, now, "", Map.of(), false);
    }

    public static TaskEvent taskSetup(Instant now) {
        return of(TASK_SETUP, now, BUILDING_TASK_DIR, Map.of("message", BUILDING_TASK_DIR), false);
    }

    public static TaskEvent started(Instant now) {
        return of(STARTED, now, "", Map.of(), false);
    }

    public static TaskEvent terminated(Instant now, ExitResult exit) {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("exit_code", Integer.toString(exit.exitCode()));
        d.put("signal", Integer.toString(exit.signal()));
        d.put("oom_killed", Boolean.toString(exit.oomKilled()));
        // Nomad's docker driver reports an OOM kill as the exit message "OOM Killed"; Berth does so for every driver
        String message = exit.err() != null ? exit.err() : exit.oomKilled() ? OOM_KILLED : null;
        if (message != null) {
            d.put("exit_message", message);
        }
        return new TaskEvent(TERMINATED, now, message == null ? "" : message, d, false, exit.exitCode(), exit.signal(), 0, 0);
    }

    public static TaskEvent killing(Instant now, Duration killTimeout, String reason) {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("kill_timeout", GoDuration.format(killTimeout));
        if (reason != null && !reason.isEmpty()) {
            d.put("kill_reason", reason);
        }
        return new TaskEvent(KILLING, now, "", d, false, 0, 0, killTimeout.toNanos(), 0);
    }

    public static TaskEvent killed(Instant now, String killError) {
        return killed(now, killError, null);
    }

    /** {@code Killed} with Nomad's {@code kill_error} and/or {@code kill_reason} (each only when set). */
    public static TaskEvent killed(Instant now, String killError, String killReason) {
        Map<String, String> d = new LinkedHashMap<>();
        if (killError != null) {
            d.put("kill_error", killError);
        }
        if (killReason != null && !killReason.isEmpty()) {
            d.put("kill_reason", killReason);
        }
        return of(KILLED, now, "", d, false);
    }

    public static TaskEvent restarting(Instant now, Duration delay, String reason) {
        return restarting(now, delay, reason, RestartRule.POLICY);
    }

    /** A restart; an exit rule that decided it is named in Berth's detail {@code restart_rule} ({@code RestartExitCodes[75]}). */
    public static TaskEvent restarting(Instant now, Duration delay, String reason, RestartRule rule) {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("start_delay", Long.toString(delay.toNanos()));
        d.put("restart_reason", reason == null ? "" : reason);
        if (rule instanceof RestartRule.ExitRule r) {
            d.put(RESTART_RULE, r.label());
        }
        return new TaskEvent(RESTARTING, now, "", d, false, 0, 0, 0, delay.toNanos());
    }

    public static TaskEvent notRestarting(Instant now, String reason) {
        return of(NOT_RESTARTING, now, "", Map.of("restart_reason", reason, "fails_task", "true"), true);
    }

    /**
     * No restart because an exit rule said so, named in {@code restart_rule}; it fails the task unless the exit was
     * successful ({@code failsTask}).
     */
    public static TaskEvent notRestarting(Instant now, String reason, RestartRule.ExitRule rule, boolean failsTask) {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("restart_reason", reason);
        if (failsTask) {
            d.put("fails_task", "true");
        }
        d.put(RESTART_RULE, rule.label());
        return of(NOT_RESTARTING, now, "", d, failsTask);
    }

    public static TaskEvent restartSignaled(Instant now, String reason) {
        return of(RESTART_SIGNALED, now, "", Map.of("restart_reason", reason), false);
    }

    /**
     * The running task has a new size, written in place: the message and the details {@code old_*} / {@code new_*}
     * ({@code cpu} MHz, {@code memory_mb}, {@code memory_max_mb}, {@code cores}) name both sizes.
     */
    public static TaskEvent resized(Instant now, TaskSize from, TaskSize to) {
        String message = "Task resized in place from " + from + " to " + to;
        Map<String, String> details = sizes(from, to);
        details.put("message", message);
        return of(RESIZED, now, message, details, false);
    }

    /** An update's new size could not be written in place: the task restarts with it; {@code restart_reason} says why. */
    public static TaskEvent resizeByRestart(Instant now, TaskSize from, TaskSize to, String why) {
        Map<String, String> details = sizes(from, to);
        details.put("restart_reason", "Restarting to resize from " + from + " to " + to + ": " + why);
        details.put("resize_refused", why);
        return of(RESTART_SIGNALED, now, "", details, false);
    }

    private static Map<String, String> sizes(TaskSize from, TaskSize to) {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("old_cpu", Integer.toString(from.cpuMhz()));
        d.put("new_cpu", Integer.toString(to.cpuMhz()));
        d.put("old_memory_mb", Integer.toString(from.memoryMb()));
        d.put("new_memory_mb", Integer.toString(to.memoryMb()));
        d.put("old_memory_max_mb", Integer.toString(from.memoryMaxMb()));
        d.put("new_memory_max_mb", Integer.toString(to.memoryMaxMb()));
        d.put("old_cores", Integer.toString(from.cores()));
        d.put("new_cores", Integer.toString(to.cores()));
        return d;
    }

    public static TaskEvent signaling(Instant now, String signal, String reason) {
        return of(SIGNALING, now, "", Map.of("task_signal", signal, "signal", signal, "task_signal_reason", reason), false);
    }

    /**
     * An {@code alloc exec} session started in the task (Berth's own type: Nomad records none). The message names the
     * command as JSON-ish argv, e.g. {@code Exec session started: [/bin/sh, -c, ls] (tty)}.
     */
    public static TaskEvent exec(Instant now, java.util.List<String> command, boolean tty) {
        String message = "Exec session started: " + command + (tty ? " (tty)" : "");
        return of(EXEC, now, message, Map.of("exec_command", String.join(" ", command), "tty", Boolean.toString(tty),
                "message", message), false);
    }

    /**
     * A burst of {@code memory.high} throttling (Berth's own type): the message says it in words, {@code details} hold
     * the counters ({@code memory_high_events}, {@code memory_high_total}, …).
     */
    public static TaskEvent memoryThrottled(Instant now, String message, Map<String, String> details) {
        Map<String, String> all = new LinkedHashMap<>(details);
        all.put("message", message);
        return of(MEMORY_THROTTLED, now, message, all, false);
    }

    public static TaskEvent driverFailure(Instant now, String error) {
        return of(DRIVER_FAILURE, now, "", Map.of("driver_error", error), false);
    }

    public static TaskEvent failedValidation(Instant now, String error) {
        return of(FAILED_VALIDATION, now, "", Map.of("validation_error", error, "fails_task", "true"), true);
    }

    public static TaskEvent setupFailure(Instant now, String error) {
        return of(SETUP_FAILURE, now, "", Map.of("setup_error", error, "fails_task", "true"), true);
    }

    public static TaskEvent hookFailed(Instant now, String hook, String error) {
        String msg = hook + ": " + error;
        return of(HOOK_FAILED, now, msg, Map.of("message", msg), false);
    }

    public static TaskEvent downloadingArtifacts(Instant now) {
        return of(DOWNLOADING_ARTIFACTS, now, "", Map.of(), false);
    }

    public static TaskEvent artifactDownloadFailed(Instant now, String error) {
        return of(ARTIFACT_DOWNLOAD_FAILED, now, "", Map.of("download_error", error), false);
    }

    public static TaskEvent failedRestoring(Instant now, String error) {
        return of(FAILED_RESTORING, now, error, Map.of("message", error), false);
    }

    public static TaskEvent siblingFailed(Instant now, String sibling) {
        return of(SIBLING_FAILED, now, "", Map.of("failed_sibling", sibling), false);
    }

    public static TaskEvent leaderDead(Instant now) {
        return of(LEADER_DEAD, now, "", Map.of(), false);
    }

    public static TaskEvent mainDead(Instant now) {
        return of(MAIN_DEAD, now, "", Map.of(), false);
    }

    public String detail(String key) {
        return details.getOrDefault(key, "");
    }

    /** Nomad's {@code PopulateEventDisplayMessage}. */
    public String displayMessage() {
        return switch (type) {
            case RECEIVED -> "Task received by client";
            case TASK_SETUP, HOOK_FAILED -> message;
            case FAILED_RESTORING -> "failed to restore task: " + message;
            case STARTED -> "Task started by client";
            case TERMINATED -> {
                StringBuilder sb = new StringBuilder("Exit Code: ").append(exitCode);
                if (signal != 0) {
                    sb.append(", Signal: ").append(signal);
                }
                if (!detail("exit_message").isEmpty()) {
                    sb.append(", Exit Message: \"").append(detail("exit_message")).append('"');
                }
                yield sb.toString();
            }
            case KILLING -> "Sent interrupt. Waiting " + GoDuration.format(Duration.ofNanos(killTimeoutNs)) + " before force killing";
            case KILLED -> detail("kill_error").isEmpty() ? "Task successfully killed" : detail("kill_error");
            case RESTARTING -> {
                String in = "Task restarting in " + GoDuration.format(Duration.ofNanos(startDelayNs));
                String reason = detail("restart_reason");
                yield reason.isEmpty() || reason.equals(RestartTracker.REASON_WITHIN_POLICY) ? in : reason + " - " + in;
            }
            case NOT_RESTARTING -> detail("restart_reason").isEmpty() ? "Task exceeded restart policy" : detail("restart_reason");
            case RESTART_SIGNALED -> detail("restart_reason").isEmpty() ? "Task signaled to restart" : detail("restart_reason");
            case SIGNALING -> "Task being sent signal " + detail("task_signal") + ": " + detail("task_signal_reason");
            case DRIVER_FAILURE -> detail("driver_error").isEmpty() ? "Failed to start task" : detail("driver_error");
            case FAILED_VALIDATION -> detail("validation_error").isEmpty() ? "Validation of task failed" : detail("validation_error");
            case DOWNLOADING_ARTIFACTS -> "Client is downloading artifacts";
            case ARTIFACT_DOWNLOAD_FAILED -> detail("download_error").isEmpty() ? "Failed to download artifacts" : detail("download_error");
            case SETUP_FAILURE -> detail("setup_error").isEmpty() ? "Task setup failed" : detail("setup_error");
            case SIBLING_FAILED -> "Task's sibling \"" + detail("failed_sibling") + "\" failed";
            case LEADER_DEAD -> "Leader Task in Group dead";
            case MAIN_DEAD -> "Main tasks in the group died";
            default -> message;
        };
    }
}
