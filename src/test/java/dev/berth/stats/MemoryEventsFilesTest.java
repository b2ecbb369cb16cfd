package dev.berth.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.stats.TaskMemoryEvents.Event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The memory event files as kernels write them (recorded on this v1 host, kernel 6.18, and on Debian's 6.1 in the
 * cgroup v2 VM; older layouts from the kernel's documentation), read through the kept-open files the collector uses.
 */
class MemoryEventsFilesTest {

    @TempDir
    Path tmp;

    static Stream<Arguments> recorded() {
        return Stream.of(
                arguments("v2, 6.1 after an OOM kill", CgroupVersion.V2,
                        Map.of("memory.events", "low 0\nhigh 0\nmax 57\noom 3\noom_kill 2\noom_group_kill 0\n"),
                        new TaskMemoryEvents(0, 0, 57, 3, 2, 0, 0, false, mask(Event.LOW, Event.HIGH, Event.MAX, Event.OOM, Event.OOM_KILL))),
                arguments("v2, throttled at memory.high", CgroupVersion.V2,
                        Map.of("memory.events", "low 4\nhigh 18446\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\nsock_throttled 0\n"),
                        new TaskMemoryEvents(4, 18446, 0, 0, 0, 0, 0, false, mask(Event.LOW, Event.HIGH, Event.MAX, Event.OOM, Event.OOM_KILL))),
                arguments("v2 before 4.13: no oom_kill", CgroupVersion.V2,
                        Map.of("memory.events", "low 0\nhigh 2\nmax 1\noom 1\n"),
                        new TaskMemoryEvents(0, 2, 1, 1, 0, 0, 0, false, mask(Event.LOW, Event.HIGH, Event.MAX, Event.OOM))),
                arguments("v1 with swap accounting, after an OOM kill (failcnt stays 0 on 6.18)", CgroupVersion.V1,
                        Map.of("memory.failcnt", "0\n", "memory.memsw.failcnt", "0\n",
                                "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n"),
                        new TaskMemoryEvents(0, 0, 0, 0, 1, 0, 0, false,
                                mask(Event.FAILCNT, Event.MEMSW_FAILCNT, Event.OOM_KILL, Event.UNDER_OOM))),
                arguments("v1 without swap accounting, out of memory now", CgroupVersion.V1,
                        Map.of("memory.failcnt", "1207\n", "memory.oom_control", "oom_kill_disable 1\nunder_oom 1\noom_kill 0\n"),
                        new TaskMemoryEvents(0, 0, 0, 0, 0, 1207, 0, true, mask(Event.FAILCNT, Event.OOM_KILL, Event.UNDER_OOM))),
                arguments("v1 before 4.13: no oom_kill line", CgroupVersion.V1,
                        Map.of("memory.failcnt", "3\n", "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\n"),
                        new TaskMemoryEvents(0, 0, 0, 0, 0, 3, 0, false, mask(Event.FAILCNT, Event.UNDER_OOM))),
                arguments("no memory controller files", CgroupVersion.V2, Map.of(), TaskMemoryEvents.NONE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recorded")
    void readsWhatTheKernelWrote(String name, CgroupVersion version, Map<String, String> files, TaskMemoryEvents expected)
            throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("cg"));
        for (Map.Entry<String, String> file : files.entrySet()) {
            Files.writeString(dir.resolve(file.getKey()), file.getValue());
        }
        try (MemoryEventsFiles reader = new MemoryEventsFiles(version, dir, DescriptorBudget.ofProcessLimit())) {
            assertThat(reader.read()).isEqualTo(expected);
            assertThat(reader.read()).as("a second read of the same figures").isEqualTo(expected);
        }
    }

    @Test
    void anUnchangedFileGivesTheSameObjectAndAChangedOneANewOne() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("cg"));
        Files.writeString(dir.resolve("memory.events"), "low 0\nhigh 5\nmax 0\noom 0\noom_kill 0\n");
        try (MemoryEventsFiles reader = new MemoryEventsFiles(CgroupVersion.V2, dir, DescriptorBudget.ofProcessLimit())) {
            TaskMemoryEvents first = reader.read();
            assertThat(reader.read()).isSameAs(first);
            Files.writeString(dir.resolve("memory.events"), "low 0\nhigh 9\nmax 0\noom 0\noom_kill 0\n");
            assertThat(reader.read().high()).isEqualTo(9);
        }
    }

    static int mask(Event... events) {
        int mask = 0;
        for (Event event : events) {
            mask |= 1 << event.ordinal();
        }
        return mask;
    }
}
