package dev.berth.template;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.berth.alloc.task.TaskEvent;

/** The task events the template hook emits, with Nomad's types and texts. */
final class TemplateEvents {

    /** Nomad's event type for template messages. */
    static final String TEMPLATE = "Template";
    /** Nomad's {@code TaskHookMessage}. */
    static final String HOOK_MESSAGE = "Task hook message";
    /** Nomad lists at most this many missing dependencies, then "and N more". */
    private static final int MISSING_LIMIT = 3;

    private TemplateEvents() {
    }

    /** {@code Missing: nomad.var.block(…), …}: the first render waits for these. */
    static TaskEvent missing(Instant now, List<String> missing) {
        List<String> shown = missing.size() > MISSING_LIMIT + 1
                ? java.util.stream.Stream.concat(missing.subList(0, MISSING_LIMIT).stream(),
                        java.util.stream.Stream.of("and " + (missing.size() - MISSING_LIMIT) + " more")).toList()
                : missing;
        return event(TEMPLATE, now, "Missing: " + String.join(", ", shown), false);
    }

    /** {@code Template failed: <error>}: a Killing event that fails the task. */
    static TaskEvent failed(Instant now, String error) {
        return event(TaskEvent.KILLING, now, "Template failed: " + error, true);
    }

    static TaskEvent message(Instant now, String text) {
        return event(HOOK_MESSAGE, now, text, false);
    }

    static TaskEvent scriptFailed(Instant now, String text) {
        return event(TaskEvent.HOOK_FAILED, now, text, false);
    }

    private static TaskEvent event(String type, Instant now, String message, boolean fails) {
        return new TaskEvent(type, now, message, Map.of(), fails, 0, 0, 0, 0);
    }
}
