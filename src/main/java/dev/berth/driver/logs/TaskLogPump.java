package dev.berth.driver.logs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Drains one task stream from its FIFO into a {@link RotatingFileWriter} (Nomad's logmon, in-process).
 *
 * <p>Why a FIFO and not a file the task appends to: rotation needs someone between the task and the files; why not an
 * anonymous pipe: the task must survive an agent restart, and a pipe whose reader died SIGPIPEs the task. The task's
 * launcher keeps the FIFO open read-write for the task's lifetime, so the task never sees EPIPE while the agent is
 * away (its writes only wait once the 64 KiB pipe buffer is full); a restarted agent opens the FIFO again and drains on.
 *
 * <p>The pump ends at end-of-file, when every writer (task, its children, the launcher) has closed the FIFO. Bytes of
 * one stream reach its writer in FIFO order; the writer is closed when the pump ends or is closed.
 *
 * <p>On 64-bit Linux every pump is a registration with one process-wide {@link EpollLogPumps epoll poller} (one
 * platform thread for all streams, alive only while a stream is registered); elsewhere each pump is a platform thread
 * ({@link ThreadLogPump}). Thread-safe: pumps are started and closed concurrently from any thread.
 */
public sealed interface TaskLogPump extends AutoCloseable permits EpollLogPump, ThreadLogPump {

    /**
     * Starts draining {@code fifo} into {@code writer}. Call before the task opens the FIFO for writing, so the task's
     * open does not block.
     *
     * @param name names the stream in thread dumps and logs ({@code berth-logs-…}): the virtual thread that drains it
     *             while data is ready, or the fallback's platform thread
     * @throws UncheckedIOException when the FIFO cannot be opened (the writer is closed then)
     */
    static TaskLogPump start(Path fifo, RotatingFileWriter writer, String name) {
        EpollLogPumps pumps = EpollLogPumps.shared();
        if (pumps == null) {
            return ThreadLogPump.start(fifo, writer, name);
        }
        try {
            return pumps.register(fifo, writer, name);
        } catch (IOException ex) {
            try {
                writer.close();
            } catch (IOException closing) {
                ex.addSuppressed(closing);
            }
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Waits until the pump has the FIFO open for reading, at most {@code timeoutMillis}. Until then nothing reads the
     * FIFO: if every writer closes before that, the kernel discards what they wrote (a pipe with neither readers nor
     * writers keeps no data), so callers that do not hold the FIFO open themselves wait here first. The epoll pump opens
     * the FIFO in {@link #start}, so it returns true at once.
     */
    boolean awaitOpen(long timeoutMillis) throws InterruptedException;

    /** Waits until the pump reached end-of-file (all writers closed) or was closed, at most {@code timeoutMillis}. */
    boolean awaitEnd(long timeoutMillis) throws InterruptedException;

    /**
     * Stops the pump now (agent shutdown: the task keeps running and a later agent drains on): bytes still in the pipe
     * stay there for the next reader. Releases the pump's descriptor and closes its writer; waits at most a couple of
     * seconds for a write in progress.
     */
    @Override
    void close();
}
