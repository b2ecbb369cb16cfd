package dev.berth.job;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.alloc.AllocView;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.JobSpec;
import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.task.Interpolator;

import static org.assertj.core.api.Assertions.assertThat;

/** A job change that only resizes tasks updates the allocation in place; anything more, or an opt-out, replaces it. */
class ResizeOnlyTest {

    final JsonMapper json = JsonMapper.builder().build();

    ObjectNode job(long version, String resources, String taskExtra, String groupExtra) {
        ObjectNode j = (ObjectNode) json.readTree("""
                {"ID":"j","Type":"service","TaskGroups":[{"Name":"g","Count":1,%s
                  "Tasks":[{"Name":"t","Driver":"exec","Config":{"command":"/bin/sleep"},%s"Resources":{%s}}]}]}"""
                .formatted(groupExtra, taskExtra, resources));
        JobDefaults.canonicalize(j);
        j.put("Version", version);
        return j;
    }

    /** The plan for {@code next} with one allocation placed from {@code placedWith} and running it. */
    JobPlan plan(ObjectNode placedWith, ObjectNode next) {
        Placement p = new Placement("a0", "default", "j", "g", 0, placedWith.path("Version").asLong(),
                GroupHash.of(placedWith.path("TaskGroups").get(0)), null, List.of(), false, true, "running", null, false, 1, null, null, false);
        AllocationSpec spec = new AllocationSpec("a0", "j.g[0]", "default", "j", json.treeToValue(placedWith, JobSpec.class), "g", "run",
                1L, null, null);
        AllocView view = new AllocView(new AllocRecord(spec, "running", ""), Map.of());
        return JobPlan.compute(next, List.of(p), id -> id.equals("a0") ? Optional.of(view) : Optional.empty(), 0,
                Interpolator.forNode(Map.of()), name -> Optional.empty());
    }

    @Test
    void cpuAndMemoryChangesAloneAreInPlaceWithTheNewGroupHash() {
        ObjectNode v0 = job(0, "\"CPU\":100,\"MemoryMB\":64", "", "");
        ObjectNode v1 = job(1, "\"CPU\":300,\"MemoryMB\":128,\"MemoryMaxMB\":256", "", "");

        JobPlan plan = plan(v0, v1);

        assertThat(plan.places()).isEmpty();
        assertThat(plan.inPlace()).singleElement().satisfies(u -> {
            assertThat(u.placement().allocId()).isEqualTo("a0");
            assertThat(u.groupHash()).isEqualTo(GroupHash.of(v1.path("TaskGroups").get(0)));
        });
        assertThat(plan.desired().get("g")).containsEntry("InPlaceUpdate", 1).containsEntry("DestructiveUpdate", 0);
    }

    @Test
    void aResizeWithAnotherTaskChangeIsDestructive() {
        ObjectNode v0 = job(0, "\"CPU\":100,\"MemoryMB\":64", "", "");
        ObjectNode v1 = job(1, "\"CPU\":300,\"MemoryMB\":64", "\"Env\":{\"A\":\"1\"},", "");

        JobPlan plan = plan(v0, v1);

        assertThat(plan.inPlace()).isEmpty();
        assertThat(plan.places()).singleElement().satisfies(p -> assertThat(p.update()).isTrue());
    }

    @Test
    void aTaskThatOptsOutIsReplaced() {
        String optOut = "\"Meta\":{\"berth.resize\":\"restart\"},";
        ObjectNode v0 = job(0, "\"CPU\":100,\"MemoryMB\":64", optOut, "");
        ObjectNode v1 = job(1, "\"CPU\":100,\"MemoryMB\":128", optOut, "");

        assertThat(plan(v0, v1).places()).singleElement().satisfies(p -> assertThat(p.update()).isTrue());
        assertThat(plan(v0, job(1, "\"CPU\":100,\"MemoryMB\":64", optOut + "\"KillTimeout\":1,", "")).inPlace()).hasSize(1);
    }

    @Test
    void aGroupWithCanariesAndAChangeOfCoresAreDestructive() {
        String canary = "\"Update\":{\"Canary\":1},";
        assertThat(plan(job(0, "\"CPU\":100,\"MemoryMB\":64", "", canary), job(1, "\"CPU\":200,\"MemoryMB\":64", "", canary)).inPlace())
                .isEmpty();
        assertThat(plan(job(0, "\"Cores\":1,\"MemoryMB\":64", "", ""), job(1, "\"Cores\":2,\"MemoryMB\":64", "", "")).inPlace())
                .isEmpty();
    }

    @Test
    void withoutTheRunningAllocationAResizeIsDestructive() {
        ObjectNode v0 = job(0, "\"CPU\":100,\"MemoryMB\":64", "", "");
        Placement p = new Placement("a0", "default", "j", "g", 0, 0, GroupHash.of(v0.path("TaskGroups").get(0)), null, List.of(), false,
                true, "running", null, false, 1, null, null, false);

        JobPlan plan = JobPlan.compute(job(1, "\"CPU\":200,\"MemoryMB\":64", "", ""), List.of(p), id -> Optional.empty(), 0,
                Interpolator.forNode(Map.of()), name -> Optional.empty());

        assertThat(plan.inPlace()).isEmpty();
    }
}
