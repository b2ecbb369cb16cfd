package dev.berth.driver.rawexec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

import dev.berth.driver.TaskConfig;

/**
 * Where a task's stdout and stderr go: the seam for log handling. The default appends straight to
 * {@link TaskConfig#stdoutPath()}/{@link TaskConfig#stderrPath()} (the kernel writes; the agent copies nothing).
 * A rotating implementation returns {@link Target.Fifo} targets whose reader is its log pump (see
 * {@code dev.berth.driver.logs}); the launch shim then opens the FIFO <em>read-write</em> and keeps it open for the
 * task's lifetime, so the task never gets EPIPE/SIGPIPE while no agent is reading (e.g. during an agent restart).
 */
public interface TaskOutputs {

    /** Where one stream goes. */
    sealed interface Target {
        /** Appended to a regular file (created with its directory when missing). */
        record AppendFile(Path path) implements Target {
            public AppendFile {
                Objects.requireNonNull(path, "'path' must not be null");
            }
        }

        /** Written into an existing named pipe, which the launcher holds open read-write. */
        record Fifo(Path path) implements Target {
            public Fifo {
                Objects.requireNonNull(path, "'path' must not be null");
            }
        }

        /** Thrown away ({@code /dev/null}). */
        record Discard() implements Target {
        }
    }

    /** Appends to the task's files; discards a stream whose path is null. */
    TaskOutputs APPEND_TO_FILES = new TaskOutputs() {
        @Override
        public Target stdout(TaskConfig task) throws IOException {
            return appendTo(task.stdoutPath());
        }

        @Override
        public Target stderr(TaskConfig task) throws IOException {
            return appendTo(task.stderrPath());
        }

        private Target appendTo(Path path) throws IOException {
            if (path == null) {
                return new Target.Discard();
            }
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
            return new Target.AppendFile(path);
        }
    };

    /**
     * A path that is a FIFO (made and drained by the alloc's log hook) becomes a {@link Target.Fifo}; anything else is
     * appended to as with {@link #APPEND_TO_FILES}.
     */
    TaskOutputs FIFOS_OR_FILES = new TaskOutputs() {
        @Override
        public Target stdout(TaskConfig task) throws IOException {
            return target(task.stdoutPath(), APPEND_TO_FILES.stdout(task));
        }

        @Override
        public Target stderr(TaskConfig task) throws IOException {
            return target(task.stderrPath(), APPEND_TO_FILES.stderr(task));
        }

        private Target target(Path path, Target otherwise) {
            return path != null && dev.berth.driver.logs.Fifo.isFifo(path) ? new Target.Fifo(path) : otherwise;
        }
    };

    /** Prepares (creates files, FIFOs, readers) and returns the stdout target; called once per start. */
    Target stdout(TaskConfig task) throws IOException;

    Target stderr(TaskConfig task) throws IOException;
}
