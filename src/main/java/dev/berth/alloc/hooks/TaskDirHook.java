package dev.berth.alloc.hooks;

import java.util.Map;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import dev.berth.alloc.fs.AllocDir;
import dev.berth.alloc.fs.SecretsTmpfs;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.PrestartResult;
import dev.berth.alloc.task.TaskHooks.TaskPrestartHook;

/**
 * Builds the task directory ({@code Task Setup} / {@code Building Task Directory}) once, with {@code secrets/} and
 * {@code private/} on tmpfs where possible ({@link SecretsTmpfs}); sets the directory variables.
 */
@Component
@Order(10)
public class TaskDirHook implements TaskPrestartHook {

    private final java.time.Clock clock;
    private final SecretsTmpfs tmpfs;

    public TaskDirHook(java.time.Clock clock, SecretsTmpfs tmpfs) {
        this.clock = clock;
        this.tmpfs = tmpfs;
    }

    @Override
    public String name() {
        return "task_dir";
    }

    @Override
    public PrestartResult prestart(TaskHookContext context) {
        context.events().accept(TaskEvent.taskSetup(clock.instant()));
        java.nio.file.Path dir = context.taskDir();
        AllocDir allocDir = new AllocDir(context.allocDir().getParent(), context.alloc().id());
        allocDir.build();
        allocDir.buildTask(context.task().name());
        tmpfs.mount(dir, context.task());
        return new PrestartResult(Map.of(
                "NOMAD_ALLOC_DIR", allocDir.sharedDir().toString(),
                "NOMAD_TASK_DIR", dir.resolve("local").toString(),
                "NOMAD_SECRETS_DIR", dir.resolve("secrets").toString()), true);
    }
}
