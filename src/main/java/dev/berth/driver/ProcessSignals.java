package dev.berth.driver;

import com.sun.jna.LastErrorException;

import dev.berth.host.LibC;
import dev.berth.host.Signals;

/**
 * Sends signals with {@code kill(2)} ({@link LibC}): to one process or, with a negative id, to a whole process group.
 * Java's {@link ProcessHandle#destroy()} can only send SIGTERM/SIGKILL to one process, never to a group.
 */
public final class ProcessSignals {

    private static final int ESRCH = 3;

    private ProcessSignals() {
    }

    /**
     * Sends {@code signal} to every process in group {@code pgid}.
     *
     * @return false when the group has no process left (ESRCH); true when the signal was sent
     * @throws DriverException on any other error (EPERM, EINVAL)
     */
    public static boolean signalGroup(int pgid, int signal) throws DriverException {
        if (pgid <= 1) {
            throw new IllegalArgumentException("refusing to signal process group " + pgid);
        }
        return kill(-pgid, signal);
    }

    /** Sends {@code signal} to process {@code pid}; false when it does not exist. */
    public static boolean signalProcess(int pid, int signal) throws DriverException {
        if (pid <= 1) {
            throw new IllegalArgumentException("refusing to signal pid " + pid);
        }
        return kill(pid, signal);
    }

    private static boolean kill(int id, int signal) throws DriverException {
        try {
            LibC.get().kill(id, signal);
            return true;
        } catch (LastErrorException ex) {
            if (ex.getErrorCode() == ESRCH) {
                return false;
            }
            throw new DriverException("kill(" + id + ", " + Signals.name(signal) + ") failed: errno " + ex.getErrorCode(), false, ex);
        }
    }
}
