package dev.berth.service;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.service.probe.CheckProbe;
import dev.berth.service.probe.ProbeResult;

/**
 * Runs every armed check: one platform timer thread ({@code berth-checks}) only schedules; each probe runs on its own
 * virtual thread, at most {@code maxConcurrent} at a time. A check's next probe is scheduled {@code Interval} after its
 * previous one finished (as Nomad's timer reset), the first after {@code Interval / 2}; a check never has two probes in
 * flight. Arming an ID that is armed replaces it (never two copies); disarming cancels the timer, interrupts a running
 * probe and closes the probe. Not a lifecycle bean: the scheduler lives as long as the context, and the hooks that arm
 * checks disarm them when the agent shuts down, so a context stop/start re-arms cleanly. Thread-safe.
 */
public class CheckScheduler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CheckScheduler.class);

    /**
     * Receives each probe's outcome (on the probe's virtual thread); {@code statusChanged} says whether the check's
     * status differs from before the probe, {@code restart} whether {@code check_restart} asks for a restart now.
     */
    public interface ResultListener {
        void onResult(CheckDefinition def, CheckResult result, long latencyNanos, boolean statusChanged, boolean restart);
    }

    private final ScheduledExecutorService timer;
    private final ExecutorService probes;
    private final Semaphore permits;
    private final Clock clock;
    private final ResultListener listener;
    private final Map<String, Armed> armed = new ConcurrentHashMap<>();

    public CheckScheduler(Clock clock, int maxConcurrent, ResultListener listener) {
        this.clock = clock;
        this.listener = listener;
        this.permits = new Semaphore(maxConcurrent);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "berth-checks");
            t.setDaemon(true);
            return t;
        });
        this.probes = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("berth-check-", 0).factory());
    }

    /** Arms {@code def} (replacing an armed check of the same ID); returns its initial result. */
    public CheckResult arm(CheckDefinition def) {
        Armed a = new Armed(def);
        Armed old = armed.put(def.id(), a);
        if (old != null) {
            old.close();
        }
        a.schedule(def.interval().dividedBy(2));
        return a.latest;
    }

    public void disarm(String id) {
        Armed a = armed.remove(id);
        if (a != null) {
            a.close();
        }
    }

    /** Disarms every check matching {@code which}; returns their definitions. */
    public List<CheckDefinition> disarmWhere(Predicate<CheckDefinition> which) {
        List<CheckDefinition> gone = armed.values().stream().map(x -> x.def).filter(which).toList();
        gone.forEach(d -> disarm(d.id()));
        return gone;
    }

    public Collection<CheckResult> results(Predicate<CheckDefinition> which) {
        return armed.values().stream().filter(a -> which.test(a.def)).map(a -> a.latest).toList();
    }

    /** The latest result of an armed check, or null. */
    public CheckResult result(String id) {
        Armed a = armed.get(id);
        return a == null ? null : a.latest;
    }

    public int armedCount() {
        return armed.size();
    }

    /** Checks whose probe is running right now. */
    public int inFlight() {
        return (int) armed.values().stream().filter(a -> a.running != null).count();
    }

    @Override
    public void close() {
        armed.keySet().forEach(this::disarm);
        timer.shutdownNow();
        probes.shutdownNow();
    }

    private final class Armed {
        final CheckDefinition def;
        final CheckStatus status;
        final CheckRestarter restarter;
        volatile CheckResult latest;
        volatile boolean closed;
        volatile ScheduledFuture<?> next;
        volatile Thread running;
        private CheckProbe probe;

        Armed(CheckDefinition def) {
            this.def = def;
            this.status = new CheckStatus(def.initialStatus(), def.successBeforePassing(), def.failuresBeforeCritical());
            this.restarter = def.restartTask() == null || def.checkRestart() == null ? null
                    : new CheckRestarter(def.checkRestart().graceDuration(), def.interval(), def.checkRestart().limit(), clock.instant());
            this.latest = def.result(status.status(), 0, "", clock.instant().getEpochSecond());
        }

        void schedule(Duration delay) {
            if (closed) {
                return;
            }
            try {
                next = timer.schedule(() -> probes.execute(this::runOnce), delay.toNanos(), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                // the scheduler is closing
            }
        }

        private void runOnce() {
            if (closed) {
                return;
            }
            running = Thread.currentThread();
            ProbeResult r;
            long t0 = System.nanoTime();
            try {
                permits.acquire();
                try {
                    synchronized (this) {
                        if (probe == null && !closed) {
                            probe = def.probe().get();
                        }
                    }
                    t0 = System.nanoTime();
                    r = probe == null ? ProbeResult.failure("check stopped") : probe.run(def.timeout());
                } finally {
                    permits.release();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.debug("check probe failed: check={} alloc={}", def.check(), def.allocId(), e);
                r = ProbeResult.failure("check failed: " + e);
            } finally {
                running = null;
            }
            long latency = System.nanoTime() - t0;
            if (closed) {
                return;
            }
            String before = status.status();
            String s = status.record(r.success());
            latest = def.result(s, r.statusCode(), r.output(), clock.instant().getEpochSecond());
            boolean restart = restarter != null && restarter.apply(clock.instant(), s);
            try {
                listener.onResult(def, latest, latency, !s.equals(before), restart);
            } catch (RuntimeException e) {
                log.warn("check result listener failed: check={} alloc={}", def.check(), def.allocId(), e);
            }
            schedule(def.interval());
        }

        void close() {
            closed = true;
            ScheduledFuture<?> f = next;
            if (f != null) {
                f.cancel(false);
            }
            Thread t = running;
            if (t != null) {
                t.interrupt();
            }
            synchronized (this) {
                if (probe != null) {
                    probe.close();
                }
            }
        }
    }
}
