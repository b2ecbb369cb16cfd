package dev.berth.alloc.hooks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.HookFailedException;
import dev.berth.alloc.task.TaskHooks.PrestartResult;
import dev.berth.alloc.task.TaskHooks.TaskPrestartHook;

/**
 * Nomad's {@code dispatch_payload} hook: a dispatched job's payload ({@code Job.Payload}, base64) is written to
 * {@code local/<dispatch_payload.file>} of each task that names a file, before the task starts. A file outside
 * {@code local/} is refused (the task fails without restarting).
 */
@Component
@Order(15)
public class DispatchPayloadHook implements TaskPrestartHook {

    private final Clock clock;

    public DispatchPayloadHook(Clock clock) {
        this.clock = clock;
    }

    @Override
    public String name() {
        return "dispatch_payload";
    }

    @Override
    public PrestartResult prestart(TaskHookContext context) throws HookFailedException, IOException {
        TaskSpec.DispatchPayload dp = context.task().dispatchPayload();
        String payload = context.alloc().job() == null ? null : context.alloc().job().payload();
        if (dp == null || dp.file() == null || dp.file().isEmpty() || payload == null || payload.isEmpty()) {
            return new PrestartResult(java.util.Map.of(), true);
        }
        Path local = context.taskDir().resolve("local").normalize();
        Path file = local.resolve(dp.file()).normalize();
        if (!file.startsWith(local) || file.equals(local)) {
            String msg = "dispatch_payload file " + dp.file() + " escapes the task's local directory";
            throw new HookFailedException(msg, TaskEvent.setupFailure(clock.instant(), msg), false);
        }
        Files.createDirectories(file.getParent());
        Files.write(file, Base64.getDecoder().decode(payload));
        return new PrestartResult(java.util.Map.of(), true);
    }
}
