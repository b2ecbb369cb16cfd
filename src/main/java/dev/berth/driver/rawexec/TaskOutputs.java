package dev.berth.driver.rawexec;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.berth.driver.TaskConfig;

/**
 * Where a task's stdout and stderr go: the seam for log rotation. The default appends straight to
 * {@link TaskConfig#stdoutPath()}/{@link TaskConfig#stderrPath()} (the kernel writes; the agent copies nothing).
 * A rotating implementation can hand out pipes or FIFOs instead.
 */
public interface TaskOutputs {

    /** Appends to the task's files, creating them (and their directory) when missing; discards when a path is null. */
    TaskOutputs APPEND_TO_FILES = new TaskOutputs() {
        @Override
        public Redirect stdout(TaskConfig task) throws IOException {
            return appendTo(task.stdoutPath());
        }

        @Override
        public Redirect stderr(TaskConfig task) throws IOException {
            return appendTo(task.stderrPath());
        }

        private Redirect appendTo(Path path) throws IOException {
            if (path == null) {
                return Redirect.DISCARD;
            }
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
            return Redirect.appendTo(path.toFile());
        }
    };

    Redirect stdout(TaskConfig task) throws IOException;

    Redirect stderr(TaskConfig task) throws IOException;
}
