package dev.berth.driver.docker;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectExecResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.driver.DriverException;
import dev.berth.driver.ExecSession;
import dev.berth.driver.ProcessSignals;
import dev.berth.host.Signals;

/**
 * {@code alloc exec} in a container through the engine's exec API ({@code POST /containers/{id}/exec}, then
 * {@code /exec/{id}/start} on a hijacked connection of its own, {@link ExecAttach}): the command runs with the container's environment, user and
 * working directory, in its namespaces and cgroup. With a TTY the engine allocates the terminal and
 * {@code /exec/{id}/resize} sets its size. The engine has no call to stop an exec, so {@link #kill()} SIGKILLs the
 * exec's process by the host pid the engine reports (the agent shares the engine's host).
 */
final class ContainerExec implements ExecSession {

    private static final Logger log = LoggerFactory.getLogger(ContainerExec.class);
    private static final int RESIZE_ATTEMPTS = 20;
    private static final java.time.Duration RESIZE_BACKOFF = java.time.Duration.ofMillis(50);

    private final DockerClient calls;
    private final String execId;
    private final boolean tty;
    private final BytePipe stdout = new BytePipe(64);
    private final BytePipe stderr = new BytePipe(64);
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    private final AtomicBoolean killed = new AtomicBoolean();
    private final ExecAttach attach;
    private final OutputStream input;

    private ContainerExec(DockerClient calls, String execId, boolean tty, ExecAttach attach) {
        this.calls = calls;
        this.execId = execId;
        this.tty = tty;
        this.attach = attach;
        this.input = attach.stdin();
    }

    /**
     * @param calls a client for the short calls (create, inspect, resize)
     * @param host  the engine's address, for the attached stream ({@link ExecAttach})
     * @param containerId the task's running container; null when the task is not running
     */
    static ContainerExec start(DockerClient calls, String host, String containerId, Request request) throws DriverException {
        if (containerId == null) {
            throw new DriverException("task is not running", false);
        }
        String execId;
        try {
            execId = calls.execCreateCmd(containerId).withCmd(request.command().toArray(String[]::new))
                    .withAttachStdin(true).withAttachStdout(true).withAttachStderr(true).withTty(request.tty()).exec().getId();
        } catch (RuntimeException e) {
            throw new DriverException(EngineErrors.describe(host, "failed to create exec in container " + containerId, e), false, e);
        }
        ExecAttach attach;
        try {
            attach = ExecAttach.start(host, execId, request.tty());
        } catch (IOException e) {
            throw new DriverException("failed to start exec in container " + containerId + ": " + e.getMessage(), false, e);
        }
        ContainerExec exec = new ContainerExec(calls, execId, request.tty(), attach);
        if (request.rows() > 0 && request.columns() > 0) {
            exec.resize(request.rows(), request.columns());
        }
        Thread.ofVirtual().name("berth-docker-exec-" + execId.substring(0, Math.min(12, execId.length()))).start(exec::copy);
        return exec;
    }

    private void copy() {
        try {
            attach.copyOutput((stream, data) -> (stream == ExecAttach.STDERR ? stderr : stdout).out.write(data));
        } catch (IOException e) {
            log.debug("exec {} stream ended: {}", execId, e.toString());
        }
        ended();
    }

    /**
     * The attached stream ended: the command exited (or the connection broke). The engine may mark the exec finished a
     * moment after it closed the stream, so its exit code is read with a few bounded retries.
     */
    private void ended() {
        stdout.close();
        stderr.close();
        int code = killed.get() ? 128 + Signals.SIGKILL : -1;
        for (int attempt = 0; attempt < RESIZE_ATTEMPTS; attempt++) {
            try {
                InspectExecResponse inspect = calls.inspectExecCmd(execId).exec();
                if (!Boolean.TRUE.equals(inspect.isRunning()) && inspect.getExitCodeLong() != null) {
                    code = Math.toIntExact(inspect.getExitCodeLong());
                    break;
                }
            } catch (RuntimeException e) {
                log.debug("inspecting exec {} failed: {}", execId, e.toString());
                break;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(RESIZE_BACKOFF.toNanos());
        }
        exit.complete(code);
        closeStreams();
    }

    @Override
    public OutputStream stdin() {
        return input;
    }

    @Override
    public InputStream stdout() {
        return stdout.in;
    }

    @Override
    public InputStream stderr() {
        return stderr.in;
    }

    @Override
    public boolean tty() {
        return tty;
    }

    /**
     * The engine answers the attach before it has started the command, and resizes only a running exec: a refused resize
     * is retried for up to a second. On the caller's thread, so input the client sent after the size (a command typed
     * right after {@code tty_size}) reaches the command only once the terminal has that size.
     */
    @Override
    public void resize(int rows, int columns) {
        if (!tty || rows <= 0 || columns <= 0) {
            return;
        }
        for (int attempt = 0; attempt < RESIZE_ATTEMPTS && !exit.isDone(); attempt++) {
            try {
                calls.resizeExecCmd(execId).withSize(rows, columns).exec();
                return;
            } catch (RuntimeException e) {
                log.debug("resizing exec {} failed (attempt {}): {}", execId, attempt + 1, e.toString());
                java.util.concurrent.locks.LockSupport.parkNanos(RESIZE_BACKOFF.toNanos());
            }
        }
    }

    @Override
    public CompletableFuture<Integer> exit() {
        return exit;
    }

    @Override
    public void kill() {
        if (!killed.compareAndSet(false, true) || exit.isDone()) {
            closeStreams();
            return;
        }
        try {
            InspectExecResponse inspect = calls.inspectExecCmd(execId).exec();
            Long pid = inspect.getPidLong();
            if (Boolean.TRUE.equals(inspect.isRunning()) && pid != null && pid > 1) {
                ProcessSignals.signalProcess(Math.toIntExact(pid), Signals.SIGKILL);
            }
        } catch (RuntimeException | DriverException e) {
            log.debug("killing exec {} failed: {}", execId, e.toString());
        }
        closeStreams();
    }

    private void closeStreams() {
        try {
            attach.close();
        } catch (IOException e) {
            log.debug("closing exec {} stream: {}", execId, e.toString());
        }
    }
}
