package dev.berth.artifact;

import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.spec.TaskArtifactSpec;
import dev.berth.alloc.task.Interpolator;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.HookFailedException;
import dev.berth.alloc.task.TaskHooks.PrestartResult;
import dev.berth.alloc.task.TaskHooks.TaskPrestartHook;

/**
 * Nomad's {@code artifacts} prestart hook. A task with artifacts gets {@code Downloading Artifacts} ("Client is
 * downloading artifacts"), then each artifact is fetched in order; the first failure is a {@code Failed Artifact
 * Download} event carrying {@code failed to download artifact "<source>": <why>} and a recoverable start error, so the
 * restart policy decides what happens next (as in Nomad, even a destination that escapes after interpolation is retried
 * by policy). Once every artifact is in place the hook reports done: its state is persisted with the task, so neither a
 * restart of the task nor an agent restart fetches them again. A failed attempt keeps nothing: the next one fetches
 * every artifact again, which is what Nomad does too (its per-artifact marks are not saved when the hook fails).
 */
public class ArtifactHook implements TaskPrestartHook {

    private static final Logger log = LoggerFactory.getLogger(ArtifactHook.class);

    private final ArtifactGetter getter;
    private final Function<TaskHookContext, Interpolator> environment;
    private final Clock clock;

    /** @param environment the task's environment for interpolation (the runner's base environment) */
    public ArtifactHook(ArtifactProperties props, Function<TaskHookContext, Interpolator> environment, Clock clock) {
        this.getter = new ArtifactGetter(props);
        this.environment = environment;
        this.clock = clock;
    }

    @Override
    public String name() {
        return "artifacts";
    }

    @Override
    public PrestartResult prestart(TaskHookContext context) throws HookFailedException, InterruptedException {
        List<TaskArtifactSpec> artifacts = context.task().artifactsOrEmpty();
        if (artifacts.isEmpty()) {
            return new PrestartResult(Map.of(), true);
        }
        context.events().accept(TaskEvent.downloadingArtifacts(clock.instant()));
        Interpolator env = environment.apply(context);
        for (TaskArtifactSpec artifact : artifacts) {
            try {
                ArtifactRequest req = ArtifactRequest.resolve(artifact, env, context.taskDir(), context.allocDir());
                log.debug("downloading artifact: alloc={} task={} source={} destination={}", context.alloc().id(),
                        context.task().name(), artifact.source(), req.destination());
                getter.get(req, context.taskDir(), context.allocDir());
            } catch (ArtifactException | IOException | java.io.UncheckedIOException | IllegalArgumentException e) {
                // IllegalArgumentException: a path the file system cannot name (InvalidPathException)
                String msg = "failed to download artifact \"" + artifact.source() + "\": " + message(e);
                throw new HookFailedException(msg, TaskEvent.artifactDownloadFailed(clock.instant(), msg), true);
            }
        }
        return new PrestartResult(Map.of(), true);
    }

    private static String message(Exception e) {
        if (e instanceof ArtifactException) {
            return e.getMessage();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
