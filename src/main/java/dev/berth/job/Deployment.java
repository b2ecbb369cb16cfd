package dev.berth.job;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Nomad's {@code Deployment}: how one job version rolls out, group by group, in the shape {@code /v1/deployment/:id}
 * answers. Immutable; each change is a copy ({@code with…}).
 */
public record Deployment(
        @JsonProperty("ID") String id,
        @JsonProperty("Namespace") String namespace,
        @JsonProperty("JobID") String jobId,
        @JsonProperty("JobVersion") long jobVersion,
        @JsonProperty("JobModifyIndex") long jobModifyIndex,
        @JsonProperty("JobSpecModifyIndex") long jobSpecModifyIndex,
        @JsonProperty("JobCreateIndex") long jobCreateIndex,
        @JsonProperty("IsMultiregion") boolean isMultiregion,
        @JsonProperty("TaskGroups") Map<String, GroupState> taskGroups,
        @JsonProperty("Status") String status,
        @JsonProperty("StatusDescription") String statusDescription,
        @JsonProperty("EvalPriority") int evalPriority,
        @JsonProperty("CreateIndex") long createIndex,
        @JsonProperty("ModifyIndex") long modifyIndex,
        @JsonProperty("CreateTime") long createTime,
        @JsonProperty("ModifyTime") long modifyTime) {

    public static final String RUNNING = "running";
    public static final String PAUSED = "paused";
    public static final String FAILED = "failed";
    public static final String SUCCESSFUL = "successful";
    public static final String CANCELLED = "cancelled";

    static final String DESC_RUNNING = "Deployment is running";
    static final String DESC_NEEDS_PROMOTION = "Deployment is running but requires manual promotion";
    static final String DESC_AUTO_PROMOTION = "Deployment is running pending automatic promotion";
    static final String DESC_PAUSED = "Deployment is paused";
    static final String DESC_SUCCESSFUL = "Deployment completed successfully";
    static final String DESC_STOPPED_JOB = "Cancelled because job is stopped";
    static final String DESC_NEWER_JOB = "Cancelled due to newer version of job";
    static final String DESC_FAILED_ALLOCS = "Failed due to unhealthy allocations";
    static final String DESC_PROGRESS_DEADLINE = "Failed due to progress deadline";
    static final String DESC_FAILED_BY_USER = "Deployment marked as failed";

    /** Nomad's zero {@code time.Time}, written for a time not set. */
    public static final Instant ZERO_TIME = Instant.parse("0001-01-01T00:00:00Z");

    public Deployment {
        taskGroups = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(taskGroups));
    }

    /** Nomad's {@code DeploymentState}: one group's part of the rollout. */
    public record GroupState(
            @JsonProperty("AutoRevert") boolean autoRevert,
            @JsonProperty("AutoPromote") boolean autoPromote,
            @JsonProperty("ProgressDeadline") long progressDeadline,
            @JsonProperty("RequireProgressBy") Instant requireProgressBy,
            @JsonProperty("Promoted") boolean promoted,
            @JsonProperty("PlacedCanaries") List<String> placedCanaries,
            @JsonProperty("DesiredCanaries") int desiredCanaries,
            @JsonProperty("DesiredTotal") int desiredTotal,
            @JsonProperty("PlacedAllocs") int placedAllocs,
            @JsonProperty("HealthyAllocs") int healthyAllocs,
            @JsonProperty("UnhealthyAllocs") int unhealthyAllocs) {

        public GroupState {
            placedCanaries = placedCanaries == null ? List.of() : List.copyOf(placedCanaries);
            requireProgressBy = requireProgressBy == null ? ZERO_TIME : requireProgressBy;
        }

        /** Whether the group waits for its canaries to be promoted. */
        boolean awaitsPromotion() {
            return desiredCanaries > 0 && !promoted;
        }

        GroupState promote(Instant now) {
            Instant by = progressDeadline > 0 ? now.plusNanos(progressDeadline) : requireProgressBy;
            return new GroupState(autoRevert, autoPromote, progressDeadline, by, true, placedCanaries, desiredCanaries,
                    desiredTotal, placedAllocs, healthyAllocs, unhealthyAllocs);
        }

        GroupState counted(List<String> canaries, int placed, int healthy, int unhealthy, Instant requireBy) {
            return new GroupState(autoRevert, autoPromote, progressDeadline, requireBy, promoted, canaries, desiredCanaries,
                    desiredTotal, placed, healthy, unhealthy);
        }
    }

    /** Nomad's {@code AllocDeploymentStatus}: an allocation's health in its deployment ({@code healthy} null: not yet known). */
    public record AllocStatus(
            @JsonProperty("Healthy") Boolean healthy,
            @JsonProperty("Timestamp") Instant timestamp,
            @JsonProperty("Canary") boolean canary,
            @JsonProperty("ModifyIndex") long modifyIndex) {

        public AllocStatus {
            timestamp = timestamp == null ? ZERO_TIME : timestamp;
        }
    }

    /** Whether the deployment can still change: running or paused. */
    public boolean active() {
        return RUNNING.equals(status) || PAUSED.equals(status);
    }

    Deployment withStatus(String newStatus, String description) {
        return new Deployment(id, namespace, jobId, jobVersion, jobModifyIndex, jobSpecModifyIndex, jobCreateIndex, isMultiregion,
                taskGroups, newStatus, description, evalPriority, createIndex, modifyIndex, createTime, modifyTime);
    }

    Deployment withGroups(Map<String, GroupState> groups) {
        return new Deployment(id, namespace, jobId, jobVersion, jobModifyIndex, jobSpecModifyIndex, jobCreateIndex, isMultiregion,
                groups, status, statusDescription, evalPriority, createIndex, modifyIndex, createTime, modifyTime);
    }

    Deployment indexed(long index, long timeNs) {
        return new Deployment(id, namespace, jobId, jobVersion, jobModifyIndex, jobSpecModifyIndex, jobCreateIndex, isMultiregion,
                taskGroups, status, statusDescription, evalPriority, createIndex == 0 ? index : createIndex, index,
                createTime == 0 ? timeNs : createTime, timeNs);
    }

    /** Whether the rollout waits for a promotion of canaries in some group. */
    boolean requiresPromotion() {
        return taskGroups.values().stream().anyMatch(GroupState::awaitsPromotion);
    }

    /** The running description: needs a promotion (by hand or automatic) or plainly running. */
    String runningDescription() {
        if (!requiresPromotion()) {
            return DESC_RUNNING;
        }
        boolean auto = taskGroups.values().stream().filter(g -> g.desiredCanaries() > 0).allMatch(GroupState::autoPromote);
        return auto ? DESC_AUTO_PROMOTION : DESC_NEEDS_PROMOTION;
    }
}
