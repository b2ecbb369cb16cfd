package dev.berth.fingerprint;

import java.util.concurrent.atomic.AtomicBoolean;

import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * Keeps the agent out of service until the first full fingerprint (host round and first driver round) completed,
 * then marks the node ready and publishes {@link ReadinessState#ACCEPTING_TRAFFIC}.
 *
 * <p>Both rounds complete inside the start of their lifecycle beans (the driver round is bounded by
 * {@code berth.fingerprint.driver-timeout}), so this always happens before Spring Boot publishes its own
 * ACCEPTING_TRAFFIC at application-ready and nothing can flip readiness back on too early.
 */
@Component
public class FingerprintReadiness {

    private final ApplicationEventPublisher publisher;
    private final NodeRegistry registry;
    private final AtomicBoolean hostDone = new AtomicBoolean();
    private final AtomicBoolean driversDone = new AtomicBoolean();
    private final AtomicBoolean accepting = new AtomicBoolean();

    public FingerprintReadiness(ApplicationEventPublisher publisher, NodeRegistry registry) {
        this.publisher = publisher;
        this.registry = registry;
    }

    /** Fingerprinting begins: refuse traffic until it completed. */
    public void starting() {
        if (!accepting.get()) {
            AvailabilityChangeEvent.publish(publisher, this, ReadinessState.REFUSING_TRAFFIC);
        }
    }

    public void hostRoundCompleted() {
        hostDone.set(true);
        completeIfDone();
    }

    public void driverRoundCompleted() {
        driversDone.set(true);
        completeIfDone();
    }

    /** Whether the first full fingerprint completed. */
    public boolean completed() {
        return accepting.get();
    }

    private void completeIfDone() {
        if (hostDone.get() && driversDone.get() && accepting.compareAndSet(false, true)) {
            registry.markReady();
            AvailabilityChangeEvent.publish(publisher, this, ReadinessState.ACCEPTING_TRAFFIC);
        }
    }
}
