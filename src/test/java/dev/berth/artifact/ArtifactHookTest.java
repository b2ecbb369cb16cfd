package dev.berth.artifact;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.JobSpec;
import dev.berth.alloc.spec.TaskArtifactSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.task.Interpolator;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.HookFailedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The hook on its own: its events, its done flag and the recoverable failure it hands the restart policy. */
class ArtifactHookTest {

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-02T10:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path tmp;

    final List<TaskEvent> events = new CopyOnWriteArrayList<>();
    final ArtifactHook hook = new ArtifactHook(ArtifactProperties.defaults(), c -> new Interpolator(Map.of("F", "data.txt"), Map.of()), CLOCK);

    TaskHookContext context(List<TaskArtifactSpec> artifacts) throws Exception {
        TaskSpec t = new TaskSpec("t", "raw_exec", Map.of(), null, null, null, null, null, null, null, null, null, null, null, artifacts, null);
        TaskGroupSpec g = new TaskGroupSpec("g", 1, List.of(t), null, null, null, null);
        AllocationSpec alloc = new AllocationSpec("a1", "j.g[0]", "default", "j",
                new JobSpec("j", "j", "batch", "default", null, null, null, List.of(g)), "g", "run", 1L, null, null);
        Path allocDir = Files.createDirectories(tmp.resolve("a1"));
        Files.createDirectories(allocDir.resolve("alloc"));
        return new TaskHookContext(alloc, g, t, allocDir, Files.createDirectories(allocDir.resolve("t")), null, events::add);
    }

    @Test
    void aTaskWithoutArtifactsIsDoneWithoutAnEvent() throws Exception {
        assertThat(hook.prestart(context(List.of())).done()).isTrue();
        assertThat(events).isEmpty();
    }

    @Test
    void fetchedArtifactsMakeTheHookDoneAfterTheDownloadingEvent() throws Exception {
        TaskHookContext ctx = context(List.of());
        Files.writeString(ctx.allocDir().resolve("alloc/data.txt"), "shared");
        TaskHookContext withArtifact = context(List.of(new TaskArtifactSpec(
                ctx.allocDir().resolve("alloc").toUri() + "${F}", null, null, "file", null, "local/copy.txt", null)));
        assertThat(hook.prestart(withArtifact).done()).isTrue();
        assertThat(withArtifact.taskDir().resolve("local/copy.txt")).hasContent("shared");
        assertThat(events).extracting(TaskEvent::type).containsExactly(TaskEvent.DOWNLOADING_ARTIFACTS);
        assertThat(events.getFirst().displayMessage()).isEqualTo("Client is downloading artifacts");
    }

    @Test
    void aFailureIsARecoverableHookErrorCarryingNomadsEvent() throws Exception {
        TaskHookContext ctx = context(List.of(new TaskArtifactSpec("git::https://example.com/repo", null, null, null, null, null, null)));
        assertThatExceptionOfType(HookFailedException.class).isThrownBy(() -> hook.prestart(ctx)).satisfies(e -> {
            assertThat(e.recoverable()).isTrue();
            assertThat(e.event().type()).isEqualTo(TaskEvent.ARTIFACT_DOWNLOAD_FAILED);
            assertThat(e.event().failsTask()).isFalse();
            assertThat(e.event().detail("download_error")).isEqualTo(e.getMessage())
                    .startsWith("failed to download artifact \"git::https://example.com/repo\": download not supported for scheme 'git'");
        });
        assertThat(events).extracting(TaskEvent::type).containsExactly(TaskEvent.DOWNLOADING_ARTIFACTS);
    }
}
