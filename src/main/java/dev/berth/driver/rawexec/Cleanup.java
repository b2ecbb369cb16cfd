package dev.berth.driver.rawexec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.host.cgroup.TaskCgroup;

/** raw_exec's cleanup after a task: its cgroup and exit file go, failures are logged, never thrown. */
final class Cleanup {

    private static final Logger log = LoggerFactory.getLogger(RawExecDriver.class);

    private Cleanup() {
    }

    /** Runs {@code cleanup} on a virtual thread of its own. */
    static void startThread(Runnable cleanup) {
        Thread.ofVirtual().name("raw-exec-exit-" + cleanup.hashCode()).start(cleanup);
    }

    static void removeQuietly(TaskCgroup cgroup) {
        try {
            cgroup.remove();
        } catch (IOException | RuntimeException ex) {
            log.warn("could not remove cgroup {}: {}", cgroup.name(), ex.getMessage());
        }
    }

    static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ex) {
            log.warn("could not delete exit file {}: {}", file, ex.getMessage());
        }
    }
}
