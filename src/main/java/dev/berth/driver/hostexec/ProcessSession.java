package dev.berth.driver.hostexec;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import com.pty4j.PtyProcess;
import com.pty4j.WinSize;

import dev.berth.driver.DriverException;
import dev.berth.driver.ExecSession;
import dev.berth.driver.ProcessSignals;
import dev.berth.host.Signals;

/**
 * An exec session backed by a host process that leads its own process group: {@link #kill()} SIGKILLs the group, so
 * the command's children go with it (anything that left the group is still in the task's cgroup and dies with the task).
 */
final class ProcessSession implements ExecSession {

    private final Process process;
    private final boolean tty;
    private final CompletableFuture<Integer> exit;
    private final AtomicBoolean killed = new AtomicBoolean();

    ProcessSession(Process process, boolean tty) {
        this.process = process;
        this.tty = tty;
        this.exit = process.onExit().thenApply(Process::exitValue);
    }

    @Override
    public OutputStream stdin() {
        return process.getOutputStream();
    }

    @Override
    public InputStream stdout() {
        return process.getInputStream();
    }

    @Override
    public InputStream stderr() {
        return tty ? InputStream.nullInputStream() : process.getErrorStream();
    }

    @Override
    public boolean tty() {
        return tty;
    }

    @Override
    public void resize(int rows, int columns) {
        if (tty && rows > 0 && columns > 0 && process.isAlive()) {
            ((PtyProcess) process).setWinSize(new WinSize(columns, rows));
        }
    }

    @Override
    public CompletableFuture<Integer> exit() {
        return exit;
    }

    @Override
    public void kill() {
        if (!killed.compareAndSet(false, true)) {
            return;
        }
        killLeftovers();
        // also closes the output streams: only after they were read to the end (see ExecStream)
        process.destroyForcibly();
    }

    @Override
    public void killLeftovers() {
        int pid = Math.toIntExact(process.pid());
        try {
            // The session leader's pid is its process group's id (setsid / the pty's new session). Also after the leader
            // exited: the kernel does not reuse a pid while a process group of that id has members, so this reaches the
            // command's leftovers (background children holding its output open), or no one (ESRCH).
            ProcessSignals.signalGroup(pid, Signals.SIGKILL);
        } catch (DriverException e) {
            // the group is gone already
        }
    }
}
