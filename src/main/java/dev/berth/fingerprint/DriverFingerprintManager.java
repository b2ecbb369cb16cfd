package dev.berth.fingerprint;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import dev.berth.driver.DriverFingerprint;
import dev.berth.driver.DriverManager;
import dev.berth.driver.HealthState;
import dev.berth.driver.TaskDriver;

/**
 * Polls every {@link TaskDriver} on its own {@link TaskDriver#fingerprintPeriod()} and applies the result to the node
 * ({@link DriverNodeUpdates}). Each driver has its own loop on a virtual thread; each fingerprint call runs on a
 * further virtual thread and is bounded by {@code berth.fingerprint.driver-timeout}, so a hanging driver is reported
 * as {@value DriverInfo#FAILED_DESCRIPTION} without holding up the other drivers. A call that is still hanging is
 * waited for again on the next period instead of starting another one, so hung calls never pile up.
 *
 * <p>{@link #start()} returns once every driver's first fingerprint was applied (at most one timeout), then the
 * node is ready.
 */
@Component
public class DriverFingerprintManager implements SmartLifecycle {

    /** Right after the host fingerprint. */
    public static final int PHASE = FingerprintManager.PHASE + 100;

    static final Duration MIN_PERIOD = Duration.ofMillis(5);

    private static final Logger log = LoggerFactory.getLogger(DriverFingerprintManager.class);

    private final DriverManager drivers;
    private final NodeRegistry registry;
    private final FingerprintReadiness readiness;
    private final Duration timeout;
    private final Clock clock;
    private final List<Thread> loops = new ArrayList<>();
    private volatile ExecutorService calls;
    private volatile boolean running;

    public DriverFingerprintManager(DriverManager drivers, NodeRegistry registry, FingerprintReadiness readiness,
                                    FingerprintProperties properties, Clock clock) {
        this.drivers = drivers;
        this.registry = registry;
        this.readiness = readiness;
        this.timeout = properties.driverTimeout();
        this.clock = clock;
    }

    @Override
    public synchronized void start() {
        running = true;
        calls = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("berth-driver-fingerprint-call-", 0).factory());
        CountDownLatch firstRound = new CountDownLatch(drivers.all().size());
        for (TaskDriver driver : drivers.all()) {
            loops.add(Thread.ofVirtual().name("berth-driver-fingerprint-" + driver.name())
                    .start(() -> loop(driver, firstRound)));
        }
        long begin = System.nanoTime();
        try {
            // Each first call is bounded by the timeout; the slack covers applying the results.
            if (!firstRound.await(timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS)) {
                log.warn("first driver fingerprint round did not complete in time");
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        log.info("first driver fingerprint round: {} drivers in {} ms", loops.size(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
        readiness.driverRoundCompleted();
    }

    private void loop(TaskDriver driver, CountDownLatch firstRound) {
        Future<DriverFingerprint> inFlight = null;
        boolean first = true;
        boolean[] failing = {false};
        while (running) {
            try {
                if (inFlight == null || inFlight.isDone()) {
                    inFlight = calls.submit(driver::fingerprint);
                }
                DriverInfo info = await(driver.name(), inFlight, failing);
                if (inFlight.isDone()) {
                    inFlight = null;
                }
                registry.update(node -> DriverNodeUpdates.apply(node, driver.name(), info, clock.instant()));
            } catch (InterruptedException ex) {
                return;
            } catch (RuntimeException ex) {
                // Periodic work catches everything and carries on (e.g. a rejected submit during shutdown).
                log.warn("driver fingerprint loop of {} failed", driver.name(), ex);
            } finally {
                if (first) {
                    first = false;
                    firstRound.countDown();
                }
            }
            try {
                Thread.sleep(period(driver));
            } catch (InterruptedException ex) {
                return;
            }
        }
    }

    /** The driver's period, but never below {@link #MIN_PERIOD}: a zero or negative period must not spin. */
    private static Duration period(TaskDriver driver) {
        Duration period = driver.fingerprintPeriod();
        return period == null || period.compareTo(MIN_PERIOD) < 0 ? MIN_PERIOD : period;
    }

    /**
     * Waits for one call. A failure is logged at WARN only when it starts a streak of failures ({@code failing[0]}
     * tracks it), so a driver failing every 500 ms does not flood the log.
     */
    private DriverInfo await(String name, Future<DriverFingerprint> call, boolean[] failing) throws InterruptedException {
        String problem;
        Throwable cause = null;
        try {
            DriverFingerprint fingerprint = call.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            if (fingerprint != null) {
                if (failing[0]) {
                    log.info("driver {} fingerprints again", name);
                }
                failing[0] = false;
                HealthState health = fingerprint.health();
                return new DriverInfo(fingerprint.attributes(), health != HealthState.UNDETECTED,
                        health == HealthState.HEALTHY, fingerprint.description(), clock.instant());
            }
            problem = "returned no fingerprint";
        } catch (TimeoutException ex) {
            problem = "did not answer its fingerprint within " + timeout;
        } catch (ExecutionException ex) {
            problem = "failed to fingerprint";
            cause = ex.getCause();
        }
        if (failing[0]) {
            log.debug("driver {} {}", name, problem, cause);
        } else {
            log.warn("driver {} {}", name, problem, cause);
        }
        failing[0] = true;
        return DriverInfo.failed(clock.instant());
    }

    @Override
    public synchronized void stop() {
        running = false;
        loops.forEach(Thread::interrupt);
        loops.clear();
        ExecutorService current = calls;
        if (current != null) {
            current.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
