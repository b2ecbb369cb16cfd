package dev.berth.alloc.task;

import java.time.Instant;

import dev.berth.driver.ExitResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** An OOM kill reads the same for every driver: Nomad's docker text "OOM Killed" as the exit message. */
class TaskEventOomTest {

    @Test
    void anOomKillIsTerminatedWithOomKilledAsItsExitMessage() {
        TaskEvent event = TaskEvent.terminated(Instant.EPOCH, new ExitResult(137, 9, true, null));
        assertThat(event.type()).isEqualTo(TaskEvent.TERMINATED);
        assertThat(event.detail("oom_killed")).isEqualTo("true");
        assertThat(event.detail("exit_message")).isEqualTo("OOM Killed");
        assertThat(event.displayMessage()).isEqualTo("Exit Code: 137, Signal: 9, Exit Message: \"OOM Killed\"");
    }

    @Test
    void aDriverErrorWinsAndAPlainExitHasNoMessage() {
        assertThat(TaskEvent.terminated(Instant.EPOCH, new ExitResult(137, 0, true, "boom")).detail("exit_message")).isEqualTo("boom");
        TaskEvent plain = TaskEvent.terminated(Instant.EPOCH, ExitResult.ofCode(1));
        assertThat(plain.detail("oom_killed")).isEqualTo("false");
        assertThat(plain.details()).doesNotContainKey("exit_message");
        assertThat(plain.displayMessage()).isEqualTo("Exit Code: 1");
    }
}
