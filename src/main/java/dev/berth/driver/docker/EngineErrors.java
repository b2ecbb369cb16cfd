package dev.berth.driver.docker;

import java.io.IOException;

/**
 * Turns a failed engine call into the text a task event shows. docker-java wraps a refused or missing socket in layers of
 * runtime exceptions whose messages say little ({@code java.io.IOException: ...}); an operator needs to read that the
 * engine is not reachable, and where Berth looked for it.
 */
final class EngineErrors {

    private EngineErrors() {
    }

    /** {@code <action>: <what went wrong>}, naming the engine endpoint when the engine could not be reached at all. */
    static String describe(String host, String action, Throwable error) {
        if (timedOut(error)) {
            return action + ": Docker daemon at " + host + " did not answer in time (" + rootMessage(error)
                    + "; berth.drivers.docker.call-timeout)";
        }
        if (unreachable(error)) {
            return action + ": Docker daemon not reachable at " + host + " (" + rootMessage(error) + ")";
        }
        return action + ": " + error.getMessage();
    }

    /** Whether the call failed on the connection (I/O), not with an answer from the engine. */
    static boolean unreachable(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof IOException || t.getClass().getName().equals("com.sun.jna.LastErrorException")) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /** Whether the engine accepted the call but did not answer within the client's response timeout (a wedged engine). */
    static boolean timedOut(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof java.net.SocketTimeoutException || t instanceof java.util.concurrent.TimeoutException
                    || t.getClass().getSimpleName().contains("Timeout")) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String msg = root.getMessage();
        return msg == null || msg.isBlank() ? root.getClass().getSimpleName() : msg;
    }
}
