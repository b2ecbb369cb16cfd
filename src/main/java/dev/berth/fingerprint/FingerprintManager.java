package dev.berth.fingerprint;

import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Runs the host {@link Fingerprinter}s: all of them once when the agent starts (sorted by name, on the starting
 * thread, so later lifecycle phases see a fingerprinted node), then each periodic one on its period on a single
 * scheduler thread. A failing run is logged and re-armed: a periodic fingerprinter keeps being called after an error
 * and its next success lands on the node (Nomad stops such a fingerprinter for good).
 */
@Component
public class FingerprintManager implements SmartLifecycle {

    /** Early: after the state (identity) beans exist, before device manager, alloc restore and the web server. */
    public static final int PHASE = -1000;

    private static final Logger log = LoggerFactory.getLogger(FingerprintManager.class);

    private final List<Fingerprinter> fingerprinters;
    private final NodeRegistry registry;
    private final FingerprintReadiness readiness;
    /** Attribute and link keys each fingerprinter reported last time, so a new result can remove the stale ones. */
    private final Map<String, Set<String>> ownedAttributes = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> ownedLinks = new ConcurrentHashMap<>();
    /** Names of fingerprinters whose last run failed (a node event is written only on the first failure in a row). */
    private final Set<String> failing = ConcurrentHashMap.newKeySet();
    private volatile ScheduledExecutorService scheduler;

    public FingerprintManager(List<Fingerprinter> fingerprinters, NodeRegistry registry, FingerprintReadiness readiness,
                              FingerprintProperties properties) {
        this.fingerprinters = fingerprinters.stream()
                .filter(f -> !properties.denylist().contains(f.name()))
                .sorted(Comparator.comparing(Fingerprinter::name))
                .toList();
        this.registry = registry;
        this.readiness = readiness;
    }

    @Override
    public void start() {
        readiness.starting();
        long begin = System.nanoTime();
        int failed = 0;
        for (Fingerprinter fingerprinter : fingerprinters) {
            failed += runOnce(fingerprinter) ? 0 : 1;
        }
        log.info("host fingerprint: {} fingerprinters ({} failed) in {} ms", fingerprinters.size(), failed,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
        readiness.hostRoundCompleted();
        scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("berth-fingerprint").factory());
        for (Fingerprinter fingerprinter : fingerprinters) {
            fingerprinter.period().ifPresent(period -> arm(fingerprinter, period));
        }
    }

    private void arm(Fingerprinter fingerprinter, Duration period) {
        ScheduledExecutorService current = scheduler;
        if (current == null || current.isShutdown()) {
            return;
        }
        current.schedule(() -> {
            try {
                runOnce(fingerprinter);
            } finally {
                // Re-arm whatever happened: ScheduledExecutorService would silently drop a task that threw.
                arm(fingerprinter, period);
            }
        }, period.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Runs one fingerprinter and applies its result; never throws. Returns whether it succeeded. */
    boolean runOnce(Fingerprinter fingerprinter) {
        String name = fingerprinter.name();
        long begin = System.nanoTime();
        try {
            FingerprintResult result = fingerprinter.fingerprint(new FingerprintRequest(registry.current()));
            apply(name, result);
            log.debug("fingerprinter {} took {} µs", name, TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - begin));
            if (failing.remove(name)) {
                log.info("fingerprinter {} recovered", name);
            }
            return true;
        } catch (Exception ex) {
            if (ex instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            log.warn("fingerprinter {} failed", name, ex);
            if (failing.add(name)) {
                registry.addEvent("Fingerprint", "Fingerprinter " + name + " failed: " + ex.getMessage(),
                        Map.of("fingerprinter", name));
            }
            return false;
        }
    }

    private void apply(String name, FingerprintResult result) {
        Set<String> staleAttributes = ownedAttributes.getOrDefault(name, Set.of());
        Set<String> staleLinks = ownedLinks.getOrDefault(name, Set.of());
        registry.update(node -> {
            Map<String, String> attributes = new HashMap<>(node.attributes());
            staleAttributes.forEach(attributes::remove);
            attributes.putAll(result.attributes());
            Map<String, String> links = new HashMap<>(node.links());
            staleLinks.forEach(links::remove);
            links.putAll(result.links());
            NodeResources resources = node.resources();
            if (result.cpu() != null) {
                resources = resources.withCpu(result.cpu());
            }
            if (result.memory() != null) {
                resources = resources.withMemory(result.memory());
            }
            if (result.disk() != null) {
                resources = resources.withDisk(result.disk());
            }
            return node.withAttributes(attributes).withLinks(links).withResources(resources);
        });
        ownedAttributes.put(name, result.attributes().keySet());
        ownedLinks.put(name, result.links().keySet());
    }

    @Override
    public void stop() {
        ScheduledExecutorService current = scheduler;
        scheduler = null;
        if (current != null) {
            current.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return scheduler != null;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
