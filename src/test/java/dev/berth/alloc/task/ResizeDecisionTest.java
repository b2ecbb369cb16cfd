package dev.berth.alloc.task;

import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.berth.alloc.spec.ResourcesSpec;
import dev.berth.alloc.spec.TaskSize;
import dev.berth.alloc.spec.TaskSpec;

import static org.assertj.core.api.Assertions.assertThat;

/** What an update's new size does to a running task, decided from the two specs alone. */
class ResizeDecisionTest {

    static TaskSpec task(Integer cpu, Integer memory, Integer memoryMax, Integer cores, Map<String, String> meta) {
        return new TaskSpec("t", "exec", Map.of("command", "/bin/sleep"), null, new ResourcesSpec(cpu, memory, memoryMax, null, null, null,
                cores), null, null, null, null, null, meta, null);
    }

    static Stream<Arguments> cases() {
        Map<String, String> none = Map.of();
        Map<String, String> optOut = Map.of(TaskSize.META_KEY, "restart");
        return Stream.of(
                Arguments.of("same size", task(100, 64, null, null, none), task(100, 64, null, null, none), "Unchanged", null),
                Arguments.of("memory_max 0 and absent are the same", task(100, 64, 0, null, none), task(100, 64, null, null, none),
                        "Unchanged", null),
                Arguments.of("only meta changes", task(100, 64, null, null, none), task(100, 64, null, null, Map.of("a", "b")),
                        "Unchanged", null),
                Arguments.of("more cpu", task(100, 64, null, null, none), task(500, 64, null, null, none), "InPlace", null),
                Arguments.of("more memory", task(100, 64, null, null, none), task(100, 128, null, null, none), "InPlace", null),
                Arguments.of("less memory", task(100, 128, null, null, none), task(100, 64, null, null, none), "InPlace", null),
                Arguments.of("memory_max added", task(100, 64, null, null, none), task(100, 64, 256, null, none), "InPlace", null),
                Arguments.of("opted out", task(100, 64, null, null, none), task(100, 128, null, null, optOut), "Replace",
                        ResizeDecision.OPTED_OUT),
                Arguments.of("opted out, any case and spaces", task(100, 64, null, null, none),
                        task(100, 128, null, null, Map.of(TaskSize.META_KEY, " Restart ")), "Replace", ResizeDecision.OPTED_OUT),
                Arguments.of("another meta value resizes", task(100, 64, null, null, none),
                        task(100, 128, null, null, Map.of(TaskSize.META_KEY, "in-place")), "InPlace", null),
                Arguments.of("opted out but same size", task(100, 64, null, null, none), task(100, 64, null, null, optOut), "Unchanged",
                        null),
                Arguments.of("reserved cores change", task(0, 64, null, 1, none), task(0, 64, null, 2, none), "Replace",
                        "its reserved cores change (1 → 2): reserved cores are not resized in place"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decides(String name, TaskSpec running, TaskSpec next, String kind, String reason) {
        ResizeDecision d = ResizeDecision.decide(running, next);

        assertThat(d.getClass().getSimpleName()).isEqualTo(kind);
        assertThat(d.to()).isEqualTo(TaskSize.of(next));
        if (d instanceof ResizeDecision.Replace r) {
            assertThat(r.reason()).isEqualTo(reason);
            assertThat(r.from()).isEqualTo(TaskSize.of(running));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theRunnersSpecTakesTheNewSizeAndKeepsTheRest(String name, TaskSpec running, TaskSpec next, String kind, String reason) {
        TaskSpec sized = TaskResize.sized(running, TaskSize.of(next));

        assertThat(TaskSize.of(sized)).isEqualTo(TaskSize.of(next));
        assertThat(sized.config()).isEqualTo(running.config());
        assertThat(sized.meta()).isEqualTo(running.meta());
    }

    @org.junit.jupiter.api.Test
    void aRefusedResizeReplacesTheTaskSayingWhy() {
        var inPlace = (ResizeDecision.InPlace) ResizeDecision.decide(task(100, 128, null, null, Map.of()), task(100, 32, null, null, Map.of()));

        ResizeDecision.Replace replace = inPlace.refused("below use");

        assertThat(replace.reason()).isEqualTo("below use");
        assertThat(replace.from().memoryMb()).isEqualTo(128);
        assertThat(replace.to().memoryMb()).isEqualTo(32);
    }
}
