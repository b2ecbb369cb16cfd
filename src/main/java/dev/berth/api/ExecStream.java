package dev.berth.api;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.ConcurrentWebSocketSessionDecorator;

import dev.berth.driver.ExecSession;

/**
 * One exec websocket with its running command: a virtual thread per output stream sends {@code stdout}/{@code stderr}
 * frames (4 KiB at most each, as Nomad's executor), input frames go to the command as they arrive, and once the command
 * exits its process group is killed (so a background child cannot hold the output open), the pumps drain, and
 * {@code {"exited":true,"result":{"exit_code":N}}} is sent before a normal close.
 *
 * <p>Bounded: sends go through a {@link ConcurrentWebSocketSessionDecorator} that gives up on a client that does not
 * read ({@value #SEND_LIMIT_MS} ms per send, {@value #BUFFER_LIMIT} bytes queued) and closes the socket; a closed socket
 * kills the command.
 */
final class ExecStream {

    static final int SEND_LIMIT_MS = 10_000;
    static final int BUFFER_LIMIT = 1 << 20;
    /** How long the pumps may take to drain after the exit (the group is dead by then; this only bounds a stuck read). */
    static final Duration DRAIN = Duration.ofSeconds(5);

    private static final Logger log = LoggerFactory.getLogger(ExecStream.class);

    private final WebSocketSession socket;
    private final ExecSession exec;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private Thread stdoutPump;
    private Thread stderrPump;

    ExecStream(WebSocketSession socket, ExecSession exec) {
        this.socket = new ConcurrentWebSocketSessionDecorator(socket, SEND_LIMIT_MS, BUFFER_LIMIT);
        this.exec = exec;
    }

    void start() {
        stdoutPump = Thread.ofVirtual().name("berth-exec-stdout").start(() -> pump(exec.stdout(), "stdout"));
        stderrPump = Thread.ofVirtual().name("berth-exec-stderr").start(() -> pump(exec.stderr(), "stderr"));
        exec.exit().whenComplete((code, error) -> Thread.ofVirtual().name("berth-exec-exit").start(() -> finish(code)));
    }

    /** A frame from the client. */
    void input(ExecFrames.Input input) {
        try {
            switch (input) {
                case ExecFrames.Stdin(byte[] data) -> {
                    exec.stdin().write(data);
                    exec.stdin().flush();
                }
                case ExecFrames.StdinClose close -> exec.stdin().close();
                case ExecFrames.TtySize(int rows, int columns) -> exec.resize(rows, columns);
                case ExecFrames.Handshake handshake -> { } // only the first frame of a ws_handshake session means anything
                case ExecFrames.Heartbeat heartbeat -> { }
            }
        } catch (IOException e) {
            // the command closed its stdin or exited: its exit frame follows
            log.debug("exec stdin: {}", e.toString());
        }
    }

    /** The socket went away: kill the command. */
    void stop() {
        if (stopped.compareAndSet(false, true)) {
            exec.kill();
        }
    }

    private void pump(InputStream in, String name) {
        byte[] buf = new byte[4096];
        try (in) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                if (n > 0) {
                    send("stdout".equals(name) ? ExecFrames.stdout(buf, n) : ExecFrames.stderr(buf, n));
                }
            }
        } catch (IOException e) {
            // a pty reads EIO once the terminal's last process is gone: that is its end of file
            log.trace("exec {} ended: {}", name, e.toString());
        }
        if (!exec.tty() || "stdout".equals(name)) {
            send(ExecFrames.closed(name));
        }
    }

    private void finish(Integer code) {
        // leftovers of the command (background children holding its output open) go with it, but its output stays open:
        // releasing the session now (Process.destroy closes the streams) lost what the pumps had not read yet
        exec.killLeftovers();
        join(stdoutPump);
        join(stderrPump);
        send(ExecFrames.exited(code == null ? -2 : code));
        try {
            socket.close(CloseStatus.NORMAL);
        } catch (IOException e) {
            log.debug("exec close: {}", e.toString());
        }
        stopped.set(true);
        exec.kill();
    }

    private static void join(Thread pump) {
        try {
            pump.join(DRAIN);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void send(String frame) {
        if (!socket.isOpen()) {
            return;
        }
        try {
            socket.sendMessage(new TextMessage(frame));
        } catch (IOException | RuntimeException e) {
            // includes the decorator's limit exceeded: it closed the socket
            log.debug("exec send failed: {}", e.toString());
            stop();
        }
    }
}
