package dev.berth.api;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import dev.berth.alloc.AllocView;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.JobSpec;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskState;

/** The Nomad JSON shapes of {@code /v1/allocation/:id} and the client allocation endpoints. */
final class AllocationDtos {

    /** Go's zero {@code time.Time}. */
    static final String ZERO_TIME = "0001-01-01T00:00:00Z";

    private AllocationDtos() {
    }

    /** Nomad's {@code Allocation}: every zero field is omitted (its {@code _struct omitempty}). */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    record AllocationDto(
            @JsonProperty("ID") String id,
            @JsonProperty("Namespace") String namespace,
            @JsonProperty("Name") String name,
            @JsonProperty("NodeID") String nodeId,
            @JsonProperty("NodeName") String nodeName,
            @JsonProperty("JobID") String jobId,
            @JsonProperty("Job") JobSpec job,
            @JsonProperty("TaskGroup") String taskGroup,
            @JsonProperty("AllocatedResources") AllocationSpec.AllocatedResources allocatedResources,
            @JsonProperty("DesiredStatus") String desiredStatus,
            @JsonProperty("ClientStatus") String clientStatus,
            @JsonProperty("ClientDescription") String clientDescription,
            @JsonProperty("TaskStates") Map<String, TaskStateDto> taskStates,
            @JsonProperty("PreviousAllocation") String previousAllocation,
            @JsonProperty("AllocModifyIndex") Long allocModifyIndex) {

        static AllocationDto of(AllocView view, String nodeId, String nodeName) {
            AllocationSpec s = view.record().spec();
            Map<String, TaskStateDto> states = new LinkedHashMap<>();
            view.taskStates().forEach((name, st) -> {
                if (!st.events().isEmpty() || !st.pending()) {
                    states.put(name, TaskStateDto.of(st));
                }
            });
            return new AllocationDto(s.id(), s.namespace(), s.name(), nodeId, nodeName, s.jobId(), s.job(), s.taskGroup(),
                    s.allocatedResources(), s.desiredStatus(), view.record().clientStatus(), view.record().clientDescription(),
                    states.isEmpty() ? null : states, s.previousAllocation(), s.modifyIndex() == 0 ? null : s.modifyIndex());
        }
    }

    /** Nomad's {@code TaskState}: every field always present; times as RFC3339 strings (zero time when unset). */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record TaskStateDto(
            @JsonProperty("State") String state,
            @JsonProperty("Failed") boolean failed,
            @JsonProperty("Restarts") long restarts,
            @JsonProperty("LastRestart") String lastRestart,
            @JsonProperty("StartedAt") String startedAt,
            @JsonProperty("FinishedAt") String finishedAt,
            @JsonProperty("Events") List<TaskEventDto> events,
            @JsonProperty("Paused") String paused) {

        static TaskStateDto of(TaskState s) {
            return new TaskStateDto(s.state(), s.failed(), s.restarts(), time(s.lastRestart()), time(s.startedAt()), time(s.finishedAt()),
                    s.events().isEmpty() ? null : s.events().stream().map(TaskEventDto::of).toList(), "");
        }

        private static String time(Instant t) {
            return t == null ? ZERO_TIME : t.toString();
        }
    }

    /** Nomad's {@code TaskEvent}: all fields present; {@code Time} in UnixNano; durations in ns. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record TaskEventDto(
            @JsonProperty("Type") String type,
            @JsonProperty("Time") long time,
            @JsonProperty("Message") String message,
            @JsonProperty("DisplayMessage") String displayMessage,
            @JsonProperty("Details") Map<String, String> details,
            @JsonProperty("FailsTask") boolean failsTask,
            @JsonProperty("RestartReason") String restartReason,
            @JsonProperty("SetupError") String setupError,
            @JsonProperty("DriverError") String driverError,
            @JsonProperty("ExitCode") int exitCode,
            @JsonProperty("Signal") int signal,
            @JsonProperty("KillTimeout") long killTimeout,
            @JsonProperty("KillError") String killError,
            @JsonProperty("KillReason") String killReason,
            @JsonProperty("StartDelay") long startDelay,
            @JsonProperty("DownloadError") String downloadError,
            @JsonProperty("ValidationError") String validationError,
            @JsonProperty("DiskLimit") long diskLimit,
            @JsonProperty("FailedSibling") String failedSibling,
            @JsonProperty("VaultError") String vaultError,
            @JsonProperty("TaskSignalReason") String taskSignalReason,
            @JsonProperty("TaskSignal") String taskSignal,
            @JsonProperty("DriverMessage") String driverMessage,
            @JsonProperty("GenericSource") String genericSource) {

        static TaskEventDto of(TaskEvent e) {
            long ns = e.time().getEpochSecond() * 1_000_000_000L + e.time().getNano();
            return new TaskEventDto(e.type(), ns, e.message(), e.displayMessage(), e.details().isEmpty() ? null : e.details(),
                    e.failsTask(), e.detail("restart_reason"), e.detail("setup_error"), e.detail("driver_error"), e.exitCode(), e.signal(),
                    e.killTimeoutNs(), e.detail("kill_error"), e.detail("kill_reason"), e.startDelayNs(), e.detail("download_error"),
                    e.detail("validation_error"),
                    0, e.detail("failed_sibling"), "", e.detail("task_signal_reason"), e.detail("task_signal"), "", "");
        }
    }

    /** Body of {@code /restart}. */
    record RestartRequest(@JsonProperty("TaskName") String taskName, @JsonProperty("AllTasks") Boolean allTasks) {
    }

    /** Body of {@code /signal}. */
    record SignalRequest(@JsonProperty("Task") String task, @JsonProperty("Signal") String signal) {
    }

    /** Nomad's {@code GenericResponse}. */
    record IndexResponse(@JsonProperty("Index") long index) {
        static final IndexResponse ZERO = new IndexResponse(0);
    }
}
