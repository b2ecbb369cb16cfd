package dev.berth.driver;

/**
 * How a task ended.
 *
 * @param exitCode  the process exit code; for a process killed by a signal, drivers that run processes report
 *                  {@code 128 + signal} as Nomad's executor does (raw_exec: SIGKILL → 137)
 * @param signal    the terminating signal number (0 when none)
 * @param oomKilled whether the kernel OOM killer ended it
 * @param err       a driver error message, or null
 */
public record ExitResult(int exitCode, int signal, boolean oomKilled, String err) {

    public static ExitResult ofCode(int exitCode) {
        return new ExitResult(exitCode, 0, false, null);
    }

    public static ExitResult ofSignal(int signal) {
        return new ExitResult(0, signal, false, null);
    }

    /** Nomad's {@code Successful()}: exit code 0, no signal, no error. */
    public boolean successful() {
        return exitCode == 0 && signal == 0 && err == null;
    }
}
