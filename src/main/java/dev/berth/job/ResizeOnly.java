package dev.berth.job;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.alloc.AllocView;
import dev.berth.alloc.spec.TaskSize;
import dev.berth.alloc.spec.TaskSpec;

/**
 * Whether a group differs from what a running allocation was placed with only in its tasks' {@code CPU}, {@code MemoryMB}
 * and {@code MemoryMaxMB}: then the allocation is updated in place and its tasks are resized without a restart, where
 * Nomad's {@code tasksUpdated} sees a destructive change. The group with each task's size set back to what the allocation
 * runs must hash ({@link GroupHash}) to the hash the allocation was placed with. Never for a group with canaries (its
 * deployment places canaries for any change of the group), nor when a task whose size changes opts out
 * ({@link TaskSize#optsOut}), nor when the allocation is not known here.
 */
final class ResizeOnly {

    private static final String[] SIZE_FIELDS = {"CPU", "MemoryMB", "MemoryMaxMB"};

    private ResizeOnly() {
    }

    static boolean change(JsonNode group, String placedHash, Optional<AllocView> running) {
        if (running.isEmpty() || placedHash == null || group.path("Update").path("Canary").asInt(0) > 0) {
            return false;
        }
        Map<String, TaskSpec> tasks = new LinkedHashMap<>();
        running.get().record().spec().group().ifPresent(g -> g.tasks().forEach(t -> tasks.put(t.name(), t)));
        // MemoryMaxMB of 0 may have been written as 0 or left out: both forms are tried
        return placedHash.equals(sizedBack(group, tasks, true)) || placedHash.equals(sizedBack(group, tasks, false));
    }

    /** The hash of {@code group} with every task's size as {@code tasks} has it, or null when that cannot be. */
    private static String sizedBack(JsonNode group, Map<String, TaskSpec> tasks, boolean zeroMaxAsField) {
        ObjectNode copy = ((ObjectNode) group).deepCopy();
        for (JsonNode t : copy.path("Tasks")) {
            TaskSpec was = tasks.get(t.path("Name").asString());
            if (was == null || !(t.path("Resources") instanceof ObjectNode res)) {
                return null;
            }
            long[] old = {was.cpu(), was.memoryMb(), was.memoryMaxMb()};
            boolean resized = false;
            for (int i = 0; i < SIZE_FIELDS.length; i++) {
                resized |= res.path(SIZE_FIELDS[i]).asLong(0) != old[i];
                res.put(SIZE_FIELDS[i], old[i]);
            }
            if (old[2] == 0 && !zeroMaxAsField) {
                res.remove("MemoryMaxMB");
            }
            if (resized && t.path("Meta").path(TaskSize.META_KEY).asString("").strip().equalsIgnoreCase(TaskSize.RESTART)) {
                return null;
            }
        }
        return GroupHash.of(copy);
    }
}
