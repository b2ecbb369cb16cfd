package dev.berth.service.probe;

import java.time.Duration;

/**
 * A probe bound to one armed check (its target resolved, its connection state if any). {@link #run} blocks at most about
 * {@code timeout} and never throws for a failing target: every failure is a {@link ProbeResult}. {@link #close} frees
 * what the probe holds (a gRPC channel); it is called once when the check is disarmed.
 */
public interface CheckProbe extends AutoCloseable {

    ProbeResult run(Duration timeout) throws InterruptedException;

    @Override
    default void close() {
    }
}
