package dev.berth.job;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A loop on one virtual thread that runs {@code pass} when kicked and, while {@code periodic} answers true, at least
 * once per {@code period}; a failed pass is logged and the loop goes on. While {@code periodic} answers false (nothing
 * for a pass to do: no job at all) the loop sleeps until kicked or told to {@linkplain #recheckPeriodic() ask again},
 * so an idle agent does not run a pass every second; {@code periodic} is asked before every wait, and whatever makes it
 * true must {@link #kick()} the loop or have it {@link #recheckPeriodic()}. It can be stopped and started again (Spring's test framework pauses idle
 * cached contexts): each start begins a new loop, and the one it replaced ends at its next turn; a
 * restarted loop runs a pass at once.
 *
 * <p>Each start gives its loop a new number ({@code loopId}); {@code liveLoop} names the one loop allowed to run (0 once
 * stopped). A loop whose number is no longer the live one ends at its next turn, so a stop followed at once by a start
 * never leaves two loops running passes, even while the old one is still inside a pass.
 */
public final class KickLoop {

    private static final Logger log = LoggerFactory.getLogger(KickLoop.class);

    /** What the loop's thread is doing (for tests). */
    enum State { STOPPED, PASS, WAITING_FOR_PERIOD, WAITING_FOR_KICK }

    private final String name;
    private final Runnable pass;
    private final long periodNanos;
    private final BooleanSupplier periodic;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition signalled = lock.newCondition();
    /** Guarded by {@link #lock}: {@link #kick()} asked for a pass that has not run yet. */
    private boolean passRequested;
    /** Guarded by {@link #lock}: {@link #periodic} may have turned true and is to be asked again. */
    private boolean periodicToRecheck;
    /** Guarded by {@code this}: the number given to the last loop started (1, 2, …). */
    private long lastLoopId;
    /** The number of the loop allowed to run; 0 while stopped. Written under {@code this}, read by the loops. */
    private volatile long liveLoop;
    private volatile State state = State.STOPPED;
    private Thread thread;

    /** A loop that runs a pass at least once per {@code period}, whatever happens. */
    public KickLoop(String name, Duration period, Runnable pass) {
        this(name, period, pass, () -> true);
    }

    /**
     * @param periodic whether a pass is due every {@code period} now; asked before each wait, on the loop's thread
     */
    public KickLoop(String name, Duration period, Runnable pass, BooleanSupplier periodic) {
        this.name = name;
        this.pass = pass;
        this.periodNanos = period.toNanos();
        this.periodic = periodic;
    }

    /** Starts a loop unless the live one runs. */
    public synchronized void start() {
        if (running()) {
            return;
        }
        long loopId = ++lastLoopId;
        liveLoop = loopId;
        // the new loop is made live before its thread starts, so it can never see itself as stale
        thread = Thread.ofVirtual().name(name).unstarted(() -> run(loopId));
        thread.start();
    }

    /** Ends the loop: it runs no further pass after the one in progress, if any. */
    public synchronized void stop() {
        liveLoop = 0;
        kick(); // wakes the old loop, which ends; the requested pass stays for a loop started later
    }

    public synchronized boolean running() {
        return thread != null && thread.isAlive() && liveLoop == lastLoopId && liveLoop != 0;
    }

    /** Asks for a pass now. */
    public void kick() {
        lock.lock();
        try {
            passRequested = true;
            signalled.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Has a loop that sleeps until kicked ask {@code periodic} again: passes may be due every period again (the first after
     * a period). Runs no pass.
     */
    public void recheckPeriodic() {
        lock.lock();
        try {
            periodicToRecheck = true;
            signalled.signalAll();
        } finally {
            lock.unlock();
        }
    }

    State state() {
        return state;
    }

    /** The loop thread's state (for tests): {@code WAITING} when it waits for a kick only, {@code TIMED_WAITING} for
     *  the period. */
    synchronized Thread.State threadState() {
        return thread == null ? Thread.State.NEW : thread.getState();
    }

    private void run(long loopId) {
        try {
            while (liveLoop == loopId) {
                try {
                    if (!awaitTurn(loopId)) {
                        return;
                    }
                    state = State.PASS;
                    pass.run();
                } catch (InterruptedException e) {
                    return;
                } catch (VirtualMachineError e) {
                    throw e;
                } catch (RuntimeException | Error e) {
                    // one bad pass (a job that cannot be reconciled) must not end placement for every job
                    log.warn("{}: pass failed", name, e);
                }
            }
        } finally {
            if (liveLoop == loopId || liveLoop == 0) {
                state = State.STOPPED;
            }
        }
    }

    /**
     * Waits for a kick, or for the period while passes are periodic. True: run a pass; false: this loop is stale.
     * A kick that arrives for a stale loop is left for the loop that replaced it.
     */
    private boolean awaitTurn(long loopId) throws InterruptedException {
        boolean timed = false;
        long deadline = 0;
        while (true) {
            if (!timed && periodic.getAsBoolean()) {
                timed = true;
                deadline = System.nanoTime() + periodNanos;
            }
            state = timed ? State.WAITING_FOR_PERIOD : State.WAITING_FOR_KICK;
            lock.lockInterruptibly();
            try {
                while (true) {
                    if (liveLoop != loopId) {
                        return false;
                    }
                    if (passRequested) {
                        passRequested = false;
                        periodicToRecheck = false;
                        return true;
                    }
                    if (periodicToRecheck) {
                        periodicToRecheck = false;
                        if (!timed) {
                            break; // ask periodic again, outside the lock
                        }
                    }
                    if (timed) {
                        long left = deadline - System.nanoTime();
                        if (left <= 0) {
                            return true;
                        }
                        signalled.awaitNanos(left);
                    } else {
                        signalled.await();
                    }
                }
            } finally {
                lock.unlock();
            }
        }
    }
}
