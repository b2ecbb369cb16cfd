package dev.berth.stats;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Samples the host every {@code berth.telemetry.collection-interval} into an immutable {@link HostStats}, as Nomad's
 * {@code Client.emitStats}: once at start, then on every tick. Readers get the latest snapshot; a read never
 * triggers collection, except the very first read before any tick finished (Nomad collects lazily then too).
 *
 * <p>A failing tick is logged and the next one runs. A partition whose usage cannot be read is skipped and logged
 * once (Nomad's {@code badParts}). Collection is serialised by {@link #collectLock}; {@link #latest} is published
 * through a volatile write.
 */
public final class HostStatsCollector implements SmartLifecycle {

    /** Starts before the web server and the allocation runners, so the first snapshot usually exists before any
     *  request. */
    public static final int PHASE = -100;

    private static final Logger log = LoggerFactory.getLogger(HostStatsCollector.class);

    private final HostStatsSource source;
    private final Clock clock;
    private final HostStatsTicker ticker;
    private final Duration interval;
    private final Path allocDir;
    private final List<HostStatsListener> listeners;
    private final Object collectLock = new Object();
    /** guarded by collectLock */
    private final HostCpuStatsCalculator cpuCalculator = new HostCpuStatsCalculator();
    private final Set<String> badMounts = ConcurrentHashMap.newKeySet();
    private volatile HostStats latest;
    private volatile HostStatsTicker.Handle running;
    /** guarded by collectLock; logs the alloc-dir failure once until it recovers */
    private boolean allocDirFailing;

    public HostStatsCollector(HostStatsSource source, Clock clock, HostStatsTicker ticker, Duration interval,
                              Path allocDir, List<HostStatsListener> listeners) {
        this.source = Objects.requireNonNull(source, "'source' must not be null");
        this.clock = Objects.requireNonNull(clock, "'clock' must not be null");
        this.ticker = Objects.requireNonNull(ticker, "'ticker' must not be null");
        this.interval = Objects.requireNonNull(interval, "'interval' must not be null");
        this.allocDir = Objects.requireNonNull(allocDir, "'allocDir' must not be null");
        this.listeners = List.copyOf(listeners);
    }

    /**
     * The latest snapshot. Collects once, synchronously, only when no snapshot exists yet.
     *
     * @throws RuntimeException when that first collection fails
     */
    public HostStats latest() {
        HostStats stats = latest;
        if (stats != null) {
            return stats;
        }
        synchronized (collectLock) {
            return latest != null ? latest : collect();
        }
    }

    /** The latest snapshot, or empty before the first collection; never collects. */
    public Optional<HostStats> current() {
        return Optional.ofNullable(latest);
    }

    /** One tick: collect, and never let an exception escape (it would cancel the schedule). */
    void tick() {
        try {
            collect();
        } catch (VirtualMachineError fatal) {
            throw fatal;
        } catch (Throwable e) {
            log.warn("host stats collection failed; retrying in {}", interval, e);
        }
    }

    /** Reads the host once, publishes the snapshot and tells the listeners. */
    HostStats collect() {
        HostStats stats;
        synchronized (collectLock) {
            Instant now = clock.instant();
            double totalCompute = source.totalComputeMhz();
            List<HostCpuStats> cpus = cpuCalculator.calculate(source.cpuTicks(), totalCompute);
            double ticksConsumed = 0;
            for (HostCpuStats cpu : cpus) {
                ticksConsumed += cpu.totalTicks();
            }
            stats = new HostStats(source.memory(), cpus, readDisks(), readAllocDir(), source.uptimeSeconds(),
                    now.getEpochSecond() * 1_000_000_000L + now.getNano(), ticksConsumed);
            latest = stats;
        }
        for (HostStatsListener listener : listeners) {
            try {
                listener.onHostStats(stats);
            } catch (RuntimeException e) {
                log.warn("host stats listener {} failed", listener, e);
            }
        }
        return stats;
    }

    private List<HostDiskStats> readDisks() {
        List<HostDiskStats> disks = new ArrayList<>();
        for (HostStatsSource.DiskReading reading : source.disks()) {
            switch (reading) {
                case HostStatsSource.DiskReading.Ok ok -> {
                    disks.add(ok.stats());
                    badMounts.remove(ok.stats().mountpoint());
                }
                case HostStatsSource.DiskReading.Failed failed -> {
                    if (badMounts.add(failed.mountpoint())) {
                        log.warn("skipping partition {} in host stats: {}", failed.mountpoint(), failed.reason());
                    }
                }
            }
        }
        return disks;
    }

    private HostDiskStats readAllocDir() {
        try {
            HostDiskStats usage = source.usage(allocDir);
            allocDirFailing = false;
            return usage;
        } catch (Exception e) {
            if (!allocDirFailing) {
                log.warn("cannot read usage of alloc dir {}: {}", allocDir, e.toString());
                allocDirFailing = true;
            }
            return HostDiskStats.EMPTY;
        }
    }

    @Override
    public void start() {
        if (running == null) {
            running = ticker.every(interval, this::tick);
        }
    }

    @Override
    public void stop() {
        HostStatsTicker.Handle handle = running;
        running = null;
        if (handle != null) {
            handle.close();
        }
    }

    @Override
    public boolean isRunning() {
        return running != null;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
