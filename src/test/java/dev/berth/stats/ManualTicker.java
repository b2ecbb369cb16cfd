package dev.berth.stats;

import java.time.Duration;

/** A ticker the test drives: it remembers the armed tick and runs it when told to. */
final class ManualTicker implements HostStatsTicker {

    Duration interval;
    Runnable tick;
    boolean closed;

    @Override
    public Handle every(Duration interval, Runnable tick) {
        this.interval = interval;
        this.tick = tick;
        this.closed = false;
        return () -> closed = true;
    }

    void fire() {
        if (tick == null || closed) {
            throw new IllegalStateException("not armed");
        }
        tick.run();
    }
}
