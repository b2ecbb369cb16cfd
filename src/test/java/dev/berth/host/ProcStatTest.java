package dev.berth.host;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class ProcStatTest {

    // A real line's shape; the command contains spaces and parentheses, which is why fields are counted after the last ')'.
    private static final String LINE = "4242 (my (odd) cmd) S 1 4242 4242 0 -1 4194560 120 0 0 0 1 2 0 0 20 0 1 0 "
            + "987654 2445312 421 18446744073709551615 1 1 0 0 0 0 0 0 65536 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0";

    @TempDir
    Path proc;

    @Test
    void parsesStateGroupSessionAndStartTicks() {
        assertThat(ProcStat.parse(LINE)).isEqualTo(new ProcStat(4242, 'S', 4242, 4242, 987654));
        assertThat(ProcStat.parse(LINE.replace(") S ", ") Z ")).running()).isFalse();
        assertThat(ProcStat.parse(LINE.replace(" ", "  ").replace("(my  (odd)  cmd)", "(x)") + "\n"))
                .isEqualTo(new ProcStat(4242, 'S', 4242, 4242, 987654));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProcStat.parse("4242 (cut) S 1 4242 4242 0"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readsFromAProcRootAndTreatsAMissingPidAsGone() throws Exception {
        Files.createDirectories(proc.resolve("4242"));
        Files.writeString(proc.resolve("4242/stat"), LINE + "\n");
        assertThat(ProcStat.read(proc, 4242)).contains(new ProcStat(4242, 'S', 4242, 4242, 987654));
        assertThat(ProcStat.read(proc, 4243)).isEmpty();
    }

    @Test
    void ownProcessIsRunningOnlyWithItsOwnStartTicks() {
        long self = ProcessHandle.current().pid();
        long ticks = ProcStat.read(self).orElseThrow().startTicks();
        assertThat(ProcStat.isRunning(self, ticks)).isTrue();
        assertThat(ProcStat.isRunning(self, ticks + 1)).isFalse();
    }
}
