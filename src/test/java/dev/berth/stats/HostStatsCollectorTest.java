package dev.berth.stats;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class HostStatsCollectorTest {

    private static final Instant NOW = Instant.parse("2026-11-22T01:02:03.456789123Z");
    private static final Path ALLOC_DIR = Path.of("/var/lib/berth/alloc");

    private final ScriptedHostStatsSource source = new ScriptedHostStatsSource();
    private final ManualTicker ticker = new ManualTicker();
    private final List<HostStats> seen = new ArrayList<>();
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(HostStatsCollector.class);
    private HostStatsCollector collector;

    @BeforeEach
    void setUp() {
        logs.start();
        logger.addAppender(logs);
        collector = new HostStatsCollector(source, Clock.fixed(NOW, ZoneOffset.UTC), ticker, Duration.ofSeconds(3),
                ALLOC_DIR, List.of(seen::add));
    }

    @AfterEach
    void tearDown() {
        logger.detachAppender(logs);
    }

    @Test
    void startArmsTheTickerWithTheCollectionIntervalAndStopDisarmsIt() {
        assertThat(collector.isRunning()).isFalse();
        collector.start();

        assertThat(ticker.interval).isEqualTo(Duration.ofSeconds(3));
        assertThat(collector.isRunning()).isTrue();
        collector.stop();
        assertThat(ticker.closed).isTrue();
        assertThat(collector.isRunning()).isFalse();
        assertThatIllegalStateException().isThrownBy(ticker::fire);
    }

    @Test
    void aTickPublishesAnImmutableSnapshotOfEverySource() {
        collector.start();
        ticker.fire();

        HostStats stats = collector.current().orElseThrow();
        assertThat(stats.timestampNanos()).isEqualTo(1_795_309_323_456_789_123L);
        assertThat(stats.memory()).isEqualTo(source.memory);
        assertThat(stats.cpus()).extracting(HostCpuStats::cpu).containsExactly("cpu0", "cpu1");
        assertThat(stats.cpuTicksConsumed()).isEqualTo(stats.cpus().get(0).totalTicks() + stats.cpus().get(1).totalTicks());
        assertThat(stats.cpuTicksConsumed()).isPositive();
        assertThat(stats.disks()).containsExactly(HostDiskStats.of("/dev/vda1", "/", 1000, 400, 300, 100, 60));
        assertThat(stats.allocDir()).isEqualTo(source.allocDir);
        assertThat(source.usageCalls).containsOnly(ALLOC_DIR);
        assertThat(stats.uptimeSeconds()).isEqualTo(4242);
        assertThat(seen).containsExactly(stats);
        assertThat(collector.latest()).isSameAs(stats);
    }

    @Test
    void readsNeverCollectOnceASnapshotExists() {
        collector.start();
        ticker.fire();
        int reads = source.tickReads.get();

        for (int i = 0; i < 10; i++) {
            collector.latest();
            collector.current();
        }
        assertThat(source.tickReads).hasValue(reads);
    }

    @Test
    void theFirstReadBeforeAnyTickCollectsOnceLikeNomad() {
        assertThat(collector.current()).isEmpty();
        assertThat(source.tickReads).hasValue(0);

        HostStats first = collector.latest();
        assertThat(collector.latest()).isSameAs(first);
        assertThat(source.tickReads).hasValue(1);
    }

    @Test
    void consecutiveTicksComputeCpuFromTickDeltas() {
        collector.start();
        ticker.fire();
        source.ticks = new long[][] {{160, 10, 70, 900, 20, 30, 5, 5}, {200, 0, 100, 700, 0, 0, 0, 0}};
        ticker.fire();

        HostStats stats = collector.current().orElseThrow();
        assertThat(stats.cpus().get(0).idle()).isEqualTo(100.0 / 240 * 100);
        assertThat(stats.cpus().get(1)).isEqualTo(new HostCpuStats("cpu1", 0, 0, 100, 0, 0)); // no ticks elapsed
    }

    @Test
    void aFailingTickIsLoggedKeepsTheLastSnapshotAndTheNextTickRuns() {
        collector.start();
        ticker.fire();
        HostStats before = collector.current().orElseThrow();

        source.failTicks = new IllegalStateException("proc unreadable");
        ticker.fire(); // must not throw: an exception would cancel a ScheduledExecutorService schedule
        assertThat(collector.current()).containsSame(before);
        assertThat(logs.list).anySatisfy(event -> {
            assertThat(event.getLevel()).isEqualTo(Level.WARN);
            assertThat(event.getThrowableProxy().getMessage()).isEqualTo("proc unreadable");
        });

        source.failTicks = null;
        source.uptime = 5000;
        ticker.fire();
        assertThat(collector.current().orElseThrow().uptimeSeconds()).isEqualTo(5000);
    }

    @Test
    void aFailingPartitionIsSkippedAndLoggedOnlyOnce() {
        HostDiskStats root = HostDiskStats.of("/dev/vda1", "/", 1000, 400, 300, 100, 60);
        source.disks = List.of(new HostStatsSource.DiskReading.Failed("/mnt/stale", "stale NFS handle"),
                new HostStatsSource.DiskReading.Ok(root));
        collector.start();
        ticker.fire();
        ticker.fire();
        ticker.fire();

        assertThat(collector.current().orElseThrow().disks()).containsExactly(root);
        assertThat(logs.list).filteredOn(event -> event.getFormattedMessage().contains("/mnt/stale")).hasSize(1);
    }

    @Test
    void anUnreadableAllocDirIsReportedEmptyAsNomadDoes() {
        source.failAllocDir = new IOException("gone");
        collector.start();
        ticker.fire();
        ticker.fire();

        assertThat(collector.current().orElseThrow().allocDir()).isEqualTo(HostDiskStats.EMPTY);
        assertThat(logs.list).filteredOn(event -> event.getFormattedMessage().contains("alloc dir")).hasSize(1);
    }

    @Test
    void aFailingListenerDoesNotStopTheOthersOrCollection() {
        List<HostStats> second = new ArrayList<>();
        collector = new HostStatsCollector(source, Clock.fixed(NOW, ZoneOffset.UTC), ticker, Duration.ofSeconds(1),
                ALLOC_DIR, List.of(stats -> {
                    throw new IllegalStateException("listener broke");
                }, second::add));
        collector.start();
        ticker.fire();
        ticker.fire();

        assertThat(second).hasSize(2);
    }
}
