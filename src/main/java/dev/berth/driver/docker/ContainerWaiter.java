package dev.berth.driver.docker;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.command.WaitContainerResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.driver.ExitResult;

/**
 * Waits for one container to exit (on a virtual thread) and completes its exit future. A broken wait (engine
 * restarting, connection reset) is not an exit: it retries with backoff until the engine says the container is
 * stopped or gone. The exit code and OOM flag come from inspect, like Nomad's docker driver (signal is always 0).
 */
final class ContainerWaiter {

    private static final Logger log = LoggerFactory.getLogger(ContainerWaiter.class);
    private static final long MAX_BACKOFF_MILLIS = 5_000;
    private static final long LOG_DRAIN_MILLIS = 2_000;

    private ContainerWaiter() {
    }

    /** How long an exit with status 137 waits for a late {@code oom} event before it counts as a plain SIGKILL. */
    private static final long OOM_EVENT_GRACE_MILLIS = 1_000;

    static void await(DockerClient client, String id, ContainerLogs logs, CompletableFuture<ExitResult> exit,
            BooleanSupplier closed, OomEvents oomEvents) {
        long backoff = 100;
        Integer waited = null;
        boolean broken = false;
        while (!exit.isDone()) {
            try {
                if (broken) {
                    // the engine answers again (this throws while it does not): the log stream broke with the wait
                    client.inspectContainerCmd(id).exec();
                    if (logs != null) {
                        logs.refollow();
                    }
                    broken = false;
                }
                waited = null;
                waited = client.waitContainerCmd(id).exec(new WaitContainerResultCallback()).awaitStatusCode();
                InspectContainerResponse.ContainerState state = client.inspectContainerCmd(id).exec().getState();
                if (Boolean.TRUE.equals(state.getRunning())) {
                    continue; // restarted by the engine's own restart policy: keep waiting
                }
                drain(logs);
                int code = state.getExitCodeLong() == null ? 0 : state.getExitCodeLong().intValue();
                String error = state.getError() == null || state.getError().isBlank() ? null : state.getError();
                if ("removing".equals(state.getStatus())) {
                    // docker rm -f marks the container before it kills it: the wait ends while the removal runs
                    exit.complete(new ExitResult(code, 0, false, removed(id)));
                    return;
                }
                // the engine's flag can lose a real OOM kill (see OomEvents); an OOM kill always exits with 137
                boolean oom = Boolean.TRUE.equals(state.getOOMKilled())
                        || oomEvents.oomKilled(id, code == 137 ? OOM_EVENT_GRACE_MILLIS : 0);
                exit.complete(new ExitResult(code, 0, oom, error));
            } catch (NotFoundException e) {
                // removed behind our back (docker rm -f, a prune): never a success, whatever the last status was; the
                // wait's status (137 for rm -f of a running container) is the best exit code there is
                drain(logs);
                exit.complete(new ExitResult(waited == null ? 0 : waited, 0, false, removed(id)));
            } catch (RuntimeException e) {
                if (closed.getAsBoolean()) {
                    return; // agent shutdown: the task keeps running and is recovered later
                }
                broken = true;
                log.debug("waiting for container {} failed, retrying in {} ms: {}", id, backoff, e.toString());
                try {
                    TimeUnit.MILLISECONDS.sleep(backoff);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    exit.completeExceptionally(interrupted);
                    return;
                }
                backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
            }
        }
    }

    /** Waits for {@code exit} up to {@code timeout}; true when the container has exited (or its wait failed). */
    static boolean awaitExit(CompletableFuture<ExitResult> exit, java.time.Duration timeout) {
        try {
            exit.get(Math.max(0, timeout.toMillis()), TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            return true;
        }
    }

    private static String removed(String id) {
        return "container " + (id.length() > 12 ? id.substring(0, 12) : id)
                + " was removed outside of Berth (docker rm or prune) while the task was running";
    }

    private static void drain(ContainerLogs logs) {
        if (logs == null) {
            return;
        }
        try {
            if (!logs.awaitDrained(LOG_DRAIN_MILLIS)) {
                log.debug("log stream did not end within {} ms after exit", LOG_DRAIN_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
