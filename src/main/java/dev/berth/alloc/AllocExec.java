package dev.berth.alloc;

import org.springframework.stereotype.Component;

import dev.berth.alloc.AllocExceptions.UnknownAllocException;
import dev.berth.alloc.runner.AllocRunner;
import dev.berth.alloc.task.TaskRunner;
import dev.berth.driver.DriverException;
import dev.berth.driver.ExecSession;

/** {@code alloc exec}: finds the task and starts a command in it, refusing with Nomad's texts. */
@Component
public class AllocExec {

    private final AllocManager allocs;

    public AllocExec(AllocManager allocs) {
        this.allocs = allocs;
    }

    /**
     * Starts {@code request} in the running task {@code task} of allocation {@code id}. Refusals carry Nomad's texts: no
     * task name, an unknown one, a task not started yet or not running ({@link ExecRefusedException}); a driver that cannot
     * exec throws {@link DriverException}.
     */
    public ExecSession exec(String id, String task, ExecSession.Request request) throws UnknownAllocException,
            ExecRefusedException, DriverException {
        AllocRunner r = allocs.runnerOf(id).orElseThrow(() -> new UnknownAllocException(id));
        if (task == null || task.isEmpty()) {
            throw new ExecRefusedException("must provide task name");
        }
        TaskRunner tr = r.task(task);
        if (tr == null) {
            throw new ExecRefusedException("unknown task name \"" + task + "\"");
        }
        if (tr.state().startedAt() == null) {
            throw new ExecRefusedException("task \"" + task + "\" not started yet.");
        }
        try {
            return tr.exec(request);
        } catch (TaskRunner.TaskNotRunningException e) {
            throw new ExecRefusedException("task \"" + task + "\" is not running.");
        }
    }

    /** The request names no task, an unknown one, or one that is not running (Nomad's texts, which its clients show). */
    public static class ExecRefusedException extends Exception {
        public ExecRefusedException(String message) {
            super(message);
        }
    }
}
