package dev.berth.alloc.task;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;

import dev.berth.driver.TaskDevice;

import static org.assertj.core.api.Assertions.assertThat;

/** The local state's JSON (kept in H2): written whole with each hook's state, and read in the form written before. */
class TaskLocalStateJsonTest {

    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void hookStateWithItsEnvAndDevicesSurvivesTheRoundTrip() {
        HookState devices = new HookState(true, Map.of("NVIDIA_VISIBLE_DEVICES", "GPU-1"),
                List.of(new TaskDevice.Node("/dev/nvidia0", "/dev/nvidia0", "rw"), new TaskDevice.Mount("/a:b", "/c", true)));
        TaskLocalState state = new TaskLocalState(null, Map.of("devices", devices), null, true);
        assertThat(json.readValue(json.writeValueAsString(state), TaskLocalState.class)).isEqualTo(state);
    }

    @Test
    void stateWrittenBeforeHookStateReadsItsDoneNames() {
        TaskLocalState old = json.readValue("{\"handle\":null,\"prestartDone\":[\"task_dir\"],\"restarts\":null,\"runComplete\":false}",
                TaskLocalState.class);
        assertThat(old.hooks()).containsOnlyKeys("task_dir");
        assertThat(old.hooks().get("task_dir").done()).isTrue();
        assertThat(old.hooks().get("task_dir").env()).isEmpty();
    }
}
