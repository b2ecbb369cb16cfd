package dev.berth.device;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a plugin call on its own virtual thread and waits at most a timeout, so a hanging plugin cannot block the
 * agent. On timeout the call's thread is interrupted and abandoned.
 */
final class PluginCalls {

    private PluginCalls() {
    }

    static <T> T call(String plugin, String operation, Duration timeout, Callable<T> call)
            throws DeviceException, InterruptedException {
        CompletableFuture<T> future = new CompletableFuture<>();
        Thread thread = Thread.ofVirtual().name("device-call-" + plugin + "-" + operation).start(() -> {
            try {
                future.complete(call.call());
            }
            catch (Throwable ex) {
                future.completeExceptionally(ex);
            }
        });
        try {
            return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        catch (TimeoutException ex) {
            thread.interrupt();
            throw new DeviceException("device plugin \"" + plugin + "\" " + operation + " timed out after " + timeout);
        }
        catch (InterruptedException ex) {
            thread.interrupt();
            throw ex;
        }
        catch (ExecutionException ex) {
            Throwable cause = ex.getCause();
            if (cause instanceof DeviceException deviceException) {
                throw deviceException;
            }
            throw new DeviceException("device plugin \"" + plugin + "\" " + operation + " failed: " + cause.getMessage(), cause);
        }
    }
}
