package dev.berth.stats;

import java.io.IOException;

/**
 * Reads one task's usage from the kernel. One instance per task; the collector never calls {@link #read} concurrently
 * on the same instance, so implementations may reuse buffers.
 */
public interface TaskStatsReader {

    /**
     * Reads each source file once. Files that do not exist are simply not {@code Measured}; a task whose cgroup or root
     * process is gone yields a sample with nothing measured.
     *
     * @throws IOException when a file exists but cannot be read
     */
    TaskRawSample read() throws IOException;

    /** Releases what the reader keeps open between samples (cgroup file descriptors); reading afterwards finds nothing.
     *  Called once the task is no longer sampled. */
    default void close() {
    }
}
