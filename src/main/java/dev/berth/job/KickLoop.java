package dev.berth.job;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A loop on one virtual thread that runs {@code pass} when kicked and at least once per {@code period}; a failed pass is
 * logged and the loop goes on. It can be stopped and started again (Spring's test framework pauses idle cached contexts):
 * each start begins a new generation, and a loop of an older generation ends at its next turn.
 */
public final class KickLoop {

    private static final Logger log = LoggerFactory.getLogger(KickLoop.class);

    private final String name;
    private final Runnable pass;
    private final long periodNanos;
    private final Semaphore kick = new Semaphore(0);
    private long generation;
    private volatile long current;
    private Thread thread;

    public KickLoop(String name, Duration period, Runnable pass) {
        this.name = name;
        this.pass = pass;
        this.periodNanos = period.toNanos();
    }

    /** Starts a loop unless one of the current generation runs. */
    public synchronized void start() {
        if (thread != null && thread.isAlive() && current == generation && current != 0) {
            return;
        }
        long mine = ++generation;
        current = mine;
        // the generation is set before the thread starts, so the new loop can never see itself as stale
        thread = Thread.ofVirtual().name(name).unstarted(() -> run(mine));
        thread.start();
    }

    /** Ends the loop: it runs no further pass after the one in progress, if any. */
    public synchronized void stop() {
        current = 0;
        kick.release();
    }

    public synchronized boolean running() {
        return thread != null && thread.isAlive() && current == generation && current != 0;
    }

    /** Asks for a pass now. */
    public void kick() {
        kick.release();
    }

    private void run(long mine) {
        while (current == mine) {
            try {
                boolean kicked = kick.tryAcquire(periodNanos, TimeUnit.NANOSECONDS);
                if (current != mine) {
                    if (kicked) {
                        kick.release(); // the kick was meant for the loop that replaced this one
                    }
                    return;
                }
                kick.drainPermits();
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
    }
}
