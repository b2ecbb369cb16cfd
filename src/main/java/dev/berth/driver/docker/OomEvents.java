package dev.berth.driver.docker;

import java.io.Closeable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Event;
import com.github.dockerjava.api.model.EventType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the engine's {@code oom} container events. Inspect's {@code State.OOMKilled} is racy on Engine 20.10: the
 * exit handling can overwrite the flag the OOM event set, so some OOM-killed containers report {@code false}, while the
 * {@code oom} event arrives for every one. The waiter asks this stream too. One stream per driver; reconnects with
 * backoff (from the last event seen) while the engine is away.
 */
final class OomEvents implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(OomEvents.class);

    private final DockerClient client;
    private final Map<String, CountDownLatch> seen = new ConcurrentHashMap<>();
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile long sinceSeconds;
    private volatile ResultCallback.Adapter<Event> current;

    OomEvents(DockerClient client, long nowSeconds) {
        this.client = client;
        this.sinceSeconds = nowSeconds;
    }

    /** Starts following (once); cheap to call before every container start. */
    void ensureStarted() {
        if (started.compareAndSet(false, true)) {
            Thread.ofVirtual().name("docker-oom-events").start(this::follow);
        }
    }

    /** Whether an {@code oom} event was seen for the container, waiting up to {@code millis} for a late one. */
    boolean oomKilled(String containerId, long millis) {
        try {
            return latch(containerId).await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return latch(containerId).getCount() == 0;
        }
    }

    /** Drops what is known about a removed container. */
    void forget(String containerId) {
        seen.remove(containerId);
    }

    private CountDownLatch latch(String containerId) {
        return seen.computeIfAbsent(containerId, id -> new CountDownLatch(1));
    }

    private void follow() {
        long backoff = 100;
        while (!closed.get()) {
            ResultCallback.Adapter<Event> callback = new ResultCallback.Adapter<>() {
                @Override
                public void onNext(Event event) {
                    if (event.getId() != null) {
                        latch(event.getId()).countDown();
                    }
                    if (event.getTime() != null) {
                        sinceSeconds = event.getTime();
                    }
                }
            };
            current = callback;
            try {
                client.eventsCmd().withEventTypeFilter(EventType.CONTAINER).withEventFilter("oom")
                        .withSince(Long.toString(sinceSeconds)).exec(callback).awaitCompletion();
                backoff = 100;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (closed.get()) {
                    return;
                }
                log.debug("docker oom event stream failed, retrying in {} ms: {}", backoff, e.toString());
            }
            try {
                TimeUnit.MILLISECONDS.sleep(backoff);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            backoff = Math.min(5_000, backoff * 2);
        }
    }

    @Override
    public void close() {
        closed.set(true);
        ResultCallback.Adapter<Event> callback = current;
        if (callback != null) {
            try {
                callback.close();
            } catch (java.io.IOException e) {
                log.debug("closing oom event stream: {}", e.toString());
            }
        }
    }
}
