package dev.berth.alloc.hooks;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import dev.berth.alloc.fs.AllocDir;
import dev.berth.alloc.runner.AllocHooks.AllocDestroyHook;
import dev.berth.alloc.runner.AllocHooks.AllocHookContext;
import dev.berth.alloc.runner.AllocHooks.AllocPrerunHook;
import dev.berth.alloc.runner.AllocHooks.AllocShutdownHook;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.PrestartResult;
import dev.berth.alloc.task.TaskHooks.TaskPrestartHook;
import dev.berth.alloc.task.TaskHooks.TaskStopHook;
import dev.berth.driver.logs.Fifo;
import dev.berth.driver.logs.RotatingFileWriter;
import dev.berth.driver.logs.TaskLogPump;

/**
 * Task logs through rotation (Nomad's {@code logmon}, in-process): each task's stdout and stderr go into a FIFO
 * ({@code <task>/.berth/stdout.fifo}), drained by a {@link TaskLogPump} into {@code alloc/logs/<task>.stdout.N} with the
 * task's {@code LogConfig} ({@code MaxFiles}, {@code MaxFileSizeMB}; default 10 × 10 MB).
 *
 * <ul>
 *   <li>Prerun (also after an agent restart, for recovered tasks) and every prestart make sure the FIFOs exist and are
 *       drained, before the driver starts the task.</li>
 *   <li>The hook holds each FIFO open read-write itself, so the pump does not see end-of-file when the task exits
 *       between restarts: one pump per stream serves every run of the task.</li>
 *   <li>Stop (the task is finally dead) lets go of the FIFO: the pump drains what is left and ends.</li>
 *   <li>Agent shutdown closes the pumps but leaves the task running: the launcher keeps the FIFO open, so the task
 *       never gets EPIPE; its output waits in the pipe buffer for the next agent.</li>
 * </ul>
 * Thread-safe: pumps live in a concurrent map keyed by alloc, task and stream.
 */
@Component
@Order(30)
public class TaskLogsHook implements AllocPrerunHook, AllocShutdownHook, AllocDestroyHook, TaskPrestartHook, TaskStopHook {

    private static final Logger log = LoggerFactory.getLogger(TaskLogsHook.class);
    static final int DEFAULT_MAX_FILES = 10;
    static final int DEFAULT_MAX_FILE_SIZE_MB = 10;
    /** How long stop waits for a pump to drain what the dead task left in the pipe. */
    private static final long DRAIN_MILLIS = 5_000;

    private final Map<String, Stream> streams = new ConcurrentHashMap<>();

    /** One drained FIFO: the pump and the agent's own read-write handle that keeps the pump from seeing EOF. */
    private record Stream(TaskLogPump pump, FileChannel holder) {
    }

    @Override
    public String name() {
        return "logmon";
    }

    @Override
    public void prerun(AllocHookContext context) throws IOException {
        for (TaskSpec task : context.alloc().group().orElseThrow().tasks()) {
            ensure(context.dir(), context.alloc().id(), task);
        }
    }

    @Override
    public PrestartResult prestart(TaskHookContext context) throws IOException {
        ensure(new AllocDir(context.allocDir().getParent(), context.alloc().id()), context.alloc().id(), context.task());
        return PrestartResult.empty();
    }

    @Override
    public void stop(TaskHookContext context) {
        for (String stream : new String[] {"stdout", "stderr"}) {
            Stream s = streams.remove(key(context.alloc().id(), context.task().name(), stream));
            if (s != null) {
                finish(s);
            }
        }
    }

    @Override
    public void shutdown(AllocHookContext context) {
        closeAll(context.alloc().id());
    }

    @Override
    public void destroy(AllocHookContext context) {
        closeAll(context.alloc().id());
    }

    /** Streams being drained right now (tests and diagnostics). */
    int activeStreams(String allocId) {
        return (int) streams.keySet().stream().filter(k -> k.startsWith(allocId + "/")).count();
    }

    private void ensure(AllocDir dir, String allocId, TaskSpec task) throws IOException {
        LogLimits limits = LogLimits.of(task.logConfig());
        start(dir.stdoutFifo(task.name()), dir, key(allocId, task.name(), "stdout"), task.name() + ".stdout", limits);
        start(dir.stderrFifo(task.name()), dir, key(allocId, task.name(), "stderr"), task.name() + ".stderr", limits);
    }

    private void start(Path fifo, AllocDir dir, String key, String baseName, LogLimits limits) throws IOException {
        IOException[] failure = {null};
        streams.computeIfAbsent(key, k -> {
            try {
                Fifo.create(fifo);
                var writer = new RotatingFileWriter(dir.logsDir(), baseName, limits.maxFiles(), limits.maxFileSizeBytes());
                TaskLogPump pump = TaskLogPump.start(fifo, writer, "berth-logs-" + shortKey(k));
                // O_RDWR never blocks on a FIFO and releases the pump's blocked open for reading.
                FileChannel holder = FileChannel.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE);
                return new Stream(pump, holder);
            } catch (IOException | RuntimeException e) {
                failure[0] = e instanceof IOException io ? io : new IOException(e.getMessage(), e);
                return null;
            }
        });
        if (failure[0] != null) {
            throw new IOException("cannot set up log rotation for " + baseName + ": " + failure[0].getMessage(), failure[0]);
        }
    }

    private static void finish(Stream s) {
        close(s.holder());
        try {
            if (!s.pump().awaitEnd(DRAIN_MILLIS)) {
                // A child the task left behind still holds the FIFO: the pump drains until it exits.
                log.info("log pump still has writers after the task died; it ends when they exit");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void closeAll(String allocId) {
        streams.entrySet().removeIf(e -> {
            if (!e.getKey().startsWith(allocId + "/")) {
                return false;
            }
            e.getValue().pump().close();
            close(e.getValue().holder());
            return true;
        });
    }

    private static void close(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            log.debug("closing log fifo", e);
        }
    }

    private static String key(String allocId, String task, String stream) {
        return allocId + "/" + task + "/" + stream;
    }

    private static String shortKey(String key) {
        int slash = key.indexOf('/');
        String id = key.substring(0, slash);
        return (id.length() > 8 ? id.substring(0, 8) : id) + key.substring(slash).replace('/', '-');
    }

    /**
     * A task's {@code LogConfig}.
     *
     * @param maxFiles         files kept per stream
     * @param maxFileSizeBytes size at which a file is rotated
     */
    record LogLimits(int maxFiles, long maxFileSizeBytes) {

        static LogLimits of(Map<String, Object> logConfig) {
            int files = intOf(logConfig, "MaxFiles", DEFAULT_MAX_FILES);
            int mb = intOf(logConfig, "MaxFileSizeMB", DEFAULT_MAX_FILE_SIZE_MB);
            return new LogLimits(files, mb * 1024L * 1024L);
        }

        private static int intOf(Map<String, Object> m, String key, int dflt) {
            Object v = m == null ? null : m.get(key);
            int n = v instanceof Number num ? num.intValue() : dflt;
            return n > 0 ? n : dflt;
        }
    }
}
