package dev.berth.alloc.task;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.berth.alloc.spec.LifecycleSpec;
import dev.berth.alloc.spec.TaskSpec;

import static org.assertj.core.api.Assertions.assertThat;

/** The lifecycle FSM without runners: which gate is open in which stage, restart(), added and removed tasks. */
class TaskCoordinatorTest {

    static TaskSpec task(String name, String hook, boolean sidecar) {
        return new TaskSpec(name, "mock_driver", Map.of(), null, null, null, null, null, null,
                hook == null ? null : new LifecycleSpec(hook, sidecar), null, null);
    }

    static TaskState state(String s) {
        TaskState st = TaskState.initial().withState(s, Instant.EPOCH);
        return st;
    }

    final TaskSpec init = task("init", "prestart", false);
    final TaskSpec proxy = task("proxy", "prestart", true);
    final TaskSpec main = task("main", null, false);
    final TaskSpec post = task("post", "poststart", false);
    final TaskSpec stop = task("stop", "poststop", false);

    @Test
    void walksThroughTheStagesInOrder() {
        TaskCoordinator c = new TaskCoordinator(List.of(init, proxy, main, post, stop), false);
        assertThat(c.stage()).isEqualTo(TaskCoordinator.Stage.PRESTART);
        assertThat(c.allowed(init)).isTrue();
        assertThat(c.allowed(main)).isFalse();

        c.taskStateChanged("init", state(TaskState.RUNNING));
        c.taskStateChanged("proxy", state(TaskState.RUNNING));
        c.taskStateChanged("init", state(TaskState.DEAD));
        assertThat(c.stage()).isEqualTo(TaskCoordinator.Stage.MAIN);
        assertThat(c.allowed(main)).isTrue();
        assertThat(c.allowed(post)).isFalse();

        c.taskStateChanged("main", state(TaskState.RUNNING));
        assertThat(c.stage()).isEqualTo(TaskCoordinator.Stage.POSTSTART);
        assertThat(c.allowed(post)).isTrue();
        assertThat(c.allowed(stop)).isFalse();

        c.taskStateChanged("post", state(TaskState.DEAD));
        assertThat(c.stage()).isEqualTo(TaskCoordinator.Stage.WAIT_ALLOC);
        // a main task restarting by policy is pending again: its gate stays open
        c.taskStateChanged("main", state(TaskState.PENDING));
        assertThat(c.allowed(main)).isTrue();

        c.taskStateChanged("main", state(TaskState.DEAD));
        c.taskStateChanged("proxy", state(TaskState.DEAD));
        assertThat(c.stage()).isEqualTo(TaskCoordinator.Stage.POSTSTOP);
        assertThat(c.allowed(stop)).isTrue();
        assertThat(c.allowed(main)).isFalse();
        // nothing may be added to a finished alloc
        assertThat(c.add(task("late", null, false))).isFalse();
    }

    @Test
    void aFailedPrestartTaskKeepsTheMainGateClosed() {
        TaskCoordinator c = new TaskCoordinator(List.of(init, main), false);
        c.taskStateChanged("init", state(TaskState.DEAD).withFailed());
        assertThat(c.allowed(main)).isFalse();
    }

    @Test
    void restartWaitsUntilEveryTaskIsPendingThenRunsPrestartFirst() {
        TaskCoordinator c = new TaskCoordinator(List.of(init, main), false);
        c.taskStateChanged("init", state(TaskState.DEAD));
        c.taskStateChanged("main", state(TaskState.RUNNING));
        assertThat(c.stage()).isEqualTo(TaskCoordinator.Stage.WAIT_ALLOC);

        c.restart();
        assertThat(c.stage()).isEqualTo(TaskCoordinator.Stage.INIT);
        assertThat(c.allowed(init)).isFalse();
        c.taskStateChanged("main", state(TaskState.PENDING));
        assertThat(c.stage()).isEqualTo(TaskCoordinator.Stage.INIT);
        c.taskStateChanged("init", state(TaskState.PENDING));
        assertThat(c.stage()).isEqualTo(TaskCoordinator.Stage.PRESTART);
        assertThat(c.allowed(init)).isTrue();
        assertThat(c.allowed(main)).isFalse();
        c.taskStateChanged("init", state(TaskState.RUNNING));
        c.taskStateChanged("init", state(TaskState.DEAD));
        assertThat(c.allowed(main)).isTrue();
    }

    @Test
    void aTaskNotRestartingIsNotWaitedForByRestart() {
        TaskCoordinator c = new TaskCoordinator(List.of(init, main), false);
        c.taskStateChanged("init", state(TaskState.DEAD));
        c.taskStateChanged("main", state(TaskState.RUNNING));
        c.restart();
        c.taskStateChanged("init", state(TaskState.PENDING));
        assertThat(c.stage()).isEqualTo(TaskCoordinator.Stage.INIT);
        c.taskNotRestarting("main");
        assertThat(c.stage()).isEqualTo(TaskCoordinator.Stage.PRESTART);
    }

    @Test
    void addedAndRemovedTasks() {
        TaskCoordinator c = new TaskCoordinator(List.of(main), false);
        c.taskStateChanged("main", state(TaskState.RUNNING));
        // a prestart task added to a running alloc may start at once; a poststop one waits for the end
        TaskSpec setup = task("setup", "prestart", false);
        assertThat(c.add(setup)).isTrue();
        assertThat(c.allowed(setup)).isTrue();
        assertThat(c.add(stop)).isTrue();
        assertThat(c.allowed(stop)).isFalse();
        // a removed task no longer holds up the poststop stage
        c.taskStateChanged("setup", state(TaskState.DEAD));
        TaskSpec extra = task("extra", null, false);
        c.add(extra);
        c.taskStateChanged("main", state(TaskState.DEAD));
        assertThat(c.allowed(stop)).isFalse();
        c.remove("extra");
        assertThat(c.stage()).isEqualTo(TaskCoordinator.Stage.POSTSTOP);
        assertThat(c.allowed(stop)).isTrue();
    }

    @Test
    void aRestoredCoordinatorStartsPastInit() {
        TaskCoordinator c = new TaskCoordinator(List.of(init, main), true);
        c.taskStateChanged("init", state(TaskState.DEAD));
        c.taskStateChanged("main", state(TaskState.RUNNING));
        assertThat(c.stage()).isEqualTo(TaskCoordinator.Stage.WAIT_ALLOC);
        c.taskStateChanged("main", state(TaskState.PENDING));
        assertThat(c.allowed(main)).isTrue();
    }
}
