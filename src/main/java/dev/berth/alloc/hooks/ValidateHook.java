package dev.berth.alloc.hooks;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.HookFailedException;
import dev.berth.alloc.task.TaskHooks.PrestartResult;
import dev.berth.alloc.task.TaskHooks.TaskPrestartHook;
import dev.berth.driver.TaskConfigValidationException;

/**
 * Strict driver-config validation before every start: a rejected config emits {@code Failed Validation} and is not
 * recoverable, so the task fails with {@code Not Restarting}. The API validates too; this guards restored and updated specs.
 */
@Component
@Order(0)
public class ValidateHook implements TaskPrestartHook {

    private final java.time.Clock clock;

    public ValidateHook(java.time.Clock clock) {
        this.clock = clock;
    }

    @Override
    public String name() {
        return "validate";
    }

    @Override
    public PrestartResult prestart(TaskHookContext context) throws HookFailedException {
        try {
            context.driver().validate(context.task().config() == null ? java.util.Map.of() : context.task().config());
        } catch (TaskConfigValidationException e) {
            throw new HookFailedException(e.getMessage(), TaskEvent.failedValidation(clock.instant(), e.getMessage()), false);
        }
        return PrestartResult.empty();
    }
}
