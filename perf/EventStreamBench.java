import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.berth.events.Change;
import dev.berth.events.ChangeFeed;
import dev.berth.events.EventFilter;
import dev.berth.events.EventStream;
import dev.berth.events.IndexStore;
import dev.berth.events.NodeIndex;
import dev.berth.events.Topic;

/**
 * SUBSCRIBERS event-stream subscribers (default 1,000; one of them stuck in its first write, as a client that stopped
 * reading) follow a change feed while one writer publishes CHANGES allocation changes as fast as it can. Reports the
 * publish rate, the time until every live subscriber has every change, the stuck subscriber's fate and the JVM's
 * platform threads (subscribers run on virtual threads, as the endpoint's request threads do). Run: see
 * docs/benchmarks/streams.md.
 */
public class EventStreamBench {

    public static void main(String[] args) throws Exception {
        int subscribers = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
        int changes = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        IndexStore memory = new IndexStore() {
            long mark;

            @Override
            public synchronized long highWater() {
                return mark;
            }

            @Override
            public synchronized void reserveThrough(long highWater) {
                mark = Math.max(mark, highWater);
            }
        };
        ChangeFeed feed = new ChangeFeed(new NodeIndex(memory));
        AtomicBoolean stopped = new AtomicBoolean();
        AtomicLong delivered = new AtomicLong();
        CountDownLatch allSeen = new CountDownLatch(subscribers - 1);
        List<CompletableFuture<EventStream.End>> ends = new ArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < subscribers; i++) {
            boolean stuck = i == 0;
            EventStream stream = new EventStream(feed, EventFilter.parse(List.of("Allocation"), null, c -> null), 0,
                    Duration.ofSeconds(10), 64, stopped::get);
            EventStream.Sink sink = new EventStream.Sink() {
                long seen;

                @Override
                public void changes(List<Change> batch) throws java.io.IOException {
                    if (stuck) {
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            throw new java.io.IOException(e);
                        }
                    }
                    seen += batch.size();
                    delivered.addAndGet(batch.size());
                    if (!stuck && seen == changes) {
                        allSeen.countDown();
                    }
                }

                @Override
                public void heartbeat() {
                }
            };
            CompletableFuture<EventStream.End> end = new CompletableFuture<>();
            Thread.ofVirtual().start(() -> {
                EventStream.End why = stream.run(sink);
                end.complete(why);
                if (!stuck && why == EventStream.End.FELL_BEHIND) {
                    allSeen.countDown(); // dropped for reading too slowly: counted, not waited for
                }
            });
            ends.add(end);
        }
        Thread.sleep(500); // every subscriber waiting
        int threadsIdle = ManagementFactory.getThreadMXBean().getThreadCount();
        long t0 = System.nanoTime();
        for (int i = 0; i < changes; i++) {
            feed.publish(Topic.Allocation, "AllocationUpdated", "alloc-" + (i % 500), "default", null);
        }
        long published = System.nanoTime() - t0;
        allSeen.await();
        long caughtUp = System.nanoTime() - t0;
        int threadsBusy = ManagementFactory.getThreadMXBean().getThreadCount();
        release.countDown();
        EventStream.End stuckEnd = ends.get(0).get();
        stopped.set(true);
        for (int i = 1; i < ends.size(); i++) {
            ends.get(i).get();
        }
        long elapsedAll = System.nanoTime() - t0;
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        System.out.printf("subscribers=%d changes=%d journal=%d%n", subscribers, changes, ChangeFeed.DEFAULT_CAPACITY);
        System.out.printf("publish: %.1f ms (%.0f changes/s, %.2f us per change)%n", published / 1e6, changes / (published / 1e9),
                published / 1e3 / changes);
        System.out.printf("all %d live subscribers had every change (or were dropped) after %.1f ms (%d deliveries)%n",
                subscribers - 1, caughtUp / 1e6, delivered.get());
        long dropped = ends.stream().skip(1).filter(f -> f.join() == EventStream.End.FELL_BEHIND).count();
        System.out.printf("stuck subscriber: %s; live subscribers dropped for falling behind: %d%n", stuckEnd, dropped);
        System.out.printf("platform threads: %d idle, %d while delivering; load average %.2f%n", threadsIdle, threadsBusy, load);
    }
}
