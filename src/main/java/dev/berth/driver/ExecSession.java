package dev.berth.driver;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One command running inside a task ({@code alloc exec}), started by {@link TaskDriver#exec}. The caller pumps
 * {@link #stdout()}/{@link #stderr()} until they end, writes to {@link #stdin()}, and must call {@link #kill()} when
 * it goes away: a session never outlives its caller, and the driver ends it when the task ends.
 *
 * <p>Threading: every method may be called from any thread; {@link #kill()} is idempotent.
 */
public interface ExecSession {

    /** The command's standard input; closing it sends end-of-file (on a TTY: the terminal's EOF character). */
    OutputStream stdin();

    /** The command's standard output; with a TTY, everything the terminal shows (stdout and stderr together). */
    InputStream stdout();

    /** The command's standard error; an empty stream with a TTY (the terminal carries it in {@link #stdout()}). */
    InputStream stderr();

    /** Whether the command runs on a pseudo-terminal. */
    boolean tty();

    /** Sets the terminal's size (TIOCSWINSZ, the command gets SIGWINCH); ignored without a TTY. */
    void resize(int rows, int columns);

    /** Completes with the command's exit code (128 + signal when a signal ended it). */
    CompletableFuture<Integer> exit();

    /** Ends the command and whatever it started (SIGKILL), and releases the session's resources. Idempotent. */
    void kill();

    /**
     * Ends whatever the command left running (its process group, SIGKILL) without releasing its output: what it wrote
     * before can still be read to the end. Default: {@link #kill()}.
     */
    default void killLeftovers() {
        kill();
    }

    /**
     * What to run: the command line and whether it gets a pseudo-terminal of {@code rows} x {@code columns} (0 = the
     * library default, 80x24).
     */
    record Request(List<String> command, boolean tty, int rows, int columns) {
        public Request {
            command = List.copyOf(command);
            if (command.isEmpty()) {
                throw new IllegalArgumentException("command is not present");
            }
        }
    }
}
