package dev.berth.driver.rawexec;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskHandle;

/** A task a raw_exec driver instance started or recovered. Guarded by nothing: fields are final or volatile. */
final class RawTask {
    final TaskHandle handle;
    final int pid;
    final int pgid;
    final long startTicks;
    final Path exitFile;
    final CompletableFuture<ExitResult> exit = new CompletableFuture<>();
    volatile boolean killedByAgent;
    volatile java.util.concurrent.ScheduledFuture<?> watch;

    RawTask(TaskHandle handle, int pid, int pgid, long startTicks, Path exitFile) {
        this.handle = handle;
        this.pid = pid;
        this.pgid = pgid;
        this.startTicks = startTicks;
        this.exitFile = exitFile;
    }

    void cancelWatch() {
        java.util.concurrent.ScheduledFuture<?> w = watch;
        if (w != null) {
            w.cancel(false);
        }
    }
}
