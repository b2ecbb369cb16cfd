package dev.berth.driver.docker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.github.dockerjava.transport.DockerHttpClient;

/**
 * Bounds how long one engine call may wait for the engine's answer (its status line and headers). Needed because the
 * Apache transport's response timeout is not applied on unix sockets: its socket is an NIO channel in blocking mode,
 * which ignores {@code SO_TIMEOUT}, so a wedged dockerd (socket open, no answer) hangs pings and calls forever.
 * The call runs on a virtual thread; when the time is up that thread is interrupted, which closes the NIO channel
 * (an interruptible channel) and so ends the blocked read; the caller gets a {@link SocketTimeoutException}.
 *
 * <p>A request that failed on a stale pooled connection (see {@link #staleConnection}) is sent again, at most three
 * attempts within the same time bound: the engine never saw it. Request bodies are bytes, so a retry resends them whole.
 */
final class BoundedHttpClient implements DockerHttpClient {

    private final DockerHttpClient delegate;
    private final Duration timeout;

    BoundedHttpClient(DockerHttpClient delegate, Duration timeout) {
        this.delegate = delegate;
        this.timeout = timeout;
    }

    @Override
    public Response execute(Request request) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int attempt = 1; ; attempt++) {
            try {
                return executeOnce(request, deadline - System.nanoTime());
            } catch (RuntimeException e) {
                // after the engine restarted (or a proxy in between did), the pool still holds connections the engine
                // closed: the first request on each fails before the engine saw it. Such a request is sent again.
                if (attempt >= MAX_ATTEMPTS || request.hijackedInput() != null || !staleConnection(e)
                        || System.nanoTime() >= deadline) {
                    throw e;
                }
            }
        }
    }

    private static final int MAX_ATTEMPTS = 3;

    /** A write to a connection the engine had closed, or a close before any byte of an answer. */
    static boolean staleConnection(Throwable error) {
        for (Throwable t = error; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return false;
            }
            String message = t.getMessage() == null ? "" : t.getMessage();
            if (t.getClass().getSimpleName().equals("NoHttpResponseException") || message.contains("Broken pipe")) {
                return true;
            }
        }
        return false;
    }

    private Response executeOnce(Request request, long remainingNanos) {
        CompletableFuture<Response> answer = new CompletableFuture<>();
        Thread call = Thread.ofVirtual().name("docker-call").start(() -> {
            try {
                answer.complete(delegate.execute(request));
            } catch (Throwable e) {
                answer.completeExceptionally(e);
            }
        });
        try {
            return answer.get(Math.max(0, remainingNanos), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            call.interrupt();
            answer.thenAccept(Response::close); // an answer that still arrives is released
            throw new UncheckedIOException(new SocketTimeoutException("no answer within " + timeout.toMillis() + " ms"));
        } catch (InterruptedException e) {
            call.interrupt();
            answer.thenAccept(Response::close);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the Docker daemon", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
