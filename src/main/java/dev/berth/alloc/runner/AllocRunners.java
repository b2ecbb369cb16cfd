package dev.berth.alloc.runner;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;

/** The runner of every allocation this node knows, live or terminal, by alloc ID. Thread-safe. */
public final class AllocRunners {

    private final Map<String, AllocRunner> runners = new ConcurrentHashMap<>();

    public void add(AllocRunner runner) {
        runners.put(runner.id(), runner);
    }

    public void remove(String allocId) {
        runners.remove(allocId);
    }

    public Optional<AllocRunner> find(String allocId) {
        return Optional.ofNullable(runners.get(allocId));
    }

    public boolean contains(String allocId) {
        return runners.containsKey(allocId);
    }

    /** A live view. */
    public Collection<AllocRunner> all() {
        return runners.values();
    }

    public int size() {
        return runners.size();
    }

    /** Agent shutdown: ends every runner thread promptly (in parallel); tasks keep running. */
    public void shutdown(Duration wait) {
        try (var exec = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("berth-shutdown-", 0).factory())) {
            for (AllocRunner r : runners.values()) {
                exec.submit(() -> {
                    r.shutdown(wait);
                    return null;
                });
            }
        }
    }
}
