package dev.berth.driver.hostexec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The end of an exec session: what the command wrote must still be readable after its leftovers are killed, because the
 * exec websocket sends the {@code exited} frame only after its pumps read the output to the end. Releasing the session
 * (which closes the streams) before that lost the output on a busy machine: {@code exited} came with no {@code stdout}.
 */
class ProcessSessionTest {

    @Test
    void afterTheExitKillingTheLeftoversKeepsWhatTheCommandWrote() throws Exception {
        ProcessSession session = new ProcessSession(new ProcessBuilder("/bin/sh", "-c", "echo out; echo err >&2; exit 3").start(), false);
        assertThat(session.exit().get(10, TimeUnit.SECONDS)).isEqualTo(3);
        session.killLeftovers();
        assertThat(new String(session.stdout().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("out\n");
        assertThat(new String(session.stderr().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("err\n");
        session.kill();
    }

    @Test
    void releasingTheSessionDropsWhatWasNotReadYet() throws Exception {
        ProcessSession session = new ProcessSession(new ProcessBuilder("/bin/sh", "-c", "echo out; exit 3").start(), false);
        session.exit().get(10, TimeUnit.SECONDS);
        session.kill();
        String read;
        try {
            read = new String(session.stdout().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException closed) {
            read = "";
        }
        assertThat(read).isEmpty();
    }
}
