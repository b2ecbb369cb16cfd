package dev.berth.service;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import org.springframework.stereotype.Component;

import dev.berth.events.Change;
import dev.berth.events.ChangeFeed;
import dev.berth.events.Indexed;
import dev.berth.events.Topic;

/**
 * The node-local service registry: one {@link ServiceRegistration} per running service instance. Every registration,
 * health change and deregistration is written under the node's modify index on the {@link ChangeFeed} (topic
 * {@code Service}, types {@code ServiceRegistration} / {@code ServiceDeregistration}), so blocking queries and the event
 * stream see it. Held in memory: after an agent restart the re-armed tasks register again. Thread-safe.
 */
@Component
public class ServiceRegistry {

    public static final String REGISTERED = "ServiceRegistration";
    public static final String DEREGISTERED = "ServiceDeregistration";

    private final ChangeFeed feed;
    private final Map<String, ServiceRegistration> byId = new ConcurrentHashMap<>();
    private final Object writeLock = new Object();
    private volatile long lastIndex;

    public ServiceRegistry(ChangeFeed feed) {
        this.feed = feed;
    }

    /** Adds or replaces a registration (indexes are assigned here); an identical one changes nothing. */
    public void register(ServiceRegistration r) {
        synchronized (writeLock) {
            ServiceRegistration old = byId.get(r.id());
            if (r.sameAs(old)) {
                return;
            }
            try (ChangeFeed.Pending p = feed.begin()) {
                ServiceRegistration stored = r.withIndexes(old == null ? p.index() : old.createIndex(), p.index());
                byId.put(r.id(), stored);
                lastIndex = p.index();
                p.publish(Topic.Service, REGISTERED, r.id(), r.namespace(), stored);
            }
        }
    }

    /**
     * Sets a registration's health, computed under the registry's lock (so concurrent check results cannot write an
     * older view last); a change is written only when it differs.
     */
    public void health(String id, java.util.function.Supplier<String> compute) {
        synchronized (writeLock) {
            ServiceRegistration old = byId.get(id);
            String health = old == null ? null : compute.get();
            if (old != null && !java.util.Objects.equals(old.health(), health)) {
                register(old.withHealth(health));
            }
        }
    }

    public void deregister(String id) {
        synchronized (writeLock) {
            ServiceRegistration old = byId.remove(id);
            if (old == null) {
                return;
            }
            try (ChangeFeed.Pending p = feed.begin()) {
                ServiceRegistration gone = old.withIndexes(old.createIndex(), p.index());
                lastIndex = p.index();
                p.publish(Topic.Service, DEREGISTERED, old.id(), old.namespace(), gone);
            }
        }
    }

    /** Deregisters everything of an allocation. */
    public void deregisterAlloc(String allocId) {
        byId.values().stream().filter(r -> r.allocId().equals(allocId)).map(ServiceRegistration::id).toList()
                .forEach(this::deregister);
    }

    public List<ServiceRegistration> all() {
        return byId.values().stream().sorted(Comparator.comparing(ServiceRegistration::id)).toList();
    }

    /** The registrations of one service name in a namespace ({@code *}: all), with the index they answer for. */
    public Indexed<List<ServiceRegistration>> byName(String name, String namespace) {
        long index = Math.max(1, lastIndex);
        List<ServiceRegistration> list = all().stream().filter(r -> r.serviceName().equals(name))
                .filter(r -> "*".equals(namespace) || r.namespace().equals(namespace)).toList();
        return new Indexed<>(list, index);
    }

    /** The registrations of one job's allocations (Nomad's {@code /v1/job/:id/services}), with the index they answer for. */
    public Indexed<List<ServiceRegistration>> byJob(String jobId, String namespace) {
        long index = Math.max(1, lastIndex);
        return new Indexed<>(all().stream().filter(r -> r.jobId().equals(jobId) && r.namespace().equals(namespace)).toList(), index);
    }

    /** Nomad's list stubs: per namespace, each service name with the union of its tags. */
    public Indexed<List<Map<String, Object>>> stubs(String namespace) {
        long index = Math.max(1, lastIndex);
        Map<String, Map<String, List<String>>> perNs = new TreeMap<>();
        for (ServiceRegistration r : all()) {
            if (!"*".equals(namespace) && !r.namespace().equals(namespace)) {
                continue;
            }
            List<String> tags = perNs.computeIfAbsent(r.namespace(), k -> new TreeMap<>())
                    .computeIfAbsent(r.serviceName(), k -> new ArrayList<>());
            r.tags().stream().filter(t -> !tags.contains(t)).forEach(tags::add);
        }
        List<Map<String, Object>> out = new ArrayList<>();
        perNs.forEach((ns, services) -> {
            List<Map<String, Object>> stubs = new ArrayList<>();
            services.forEach((name, tags) -> {
                Map<String, Object> s = new java.util.LinkedHashMap<>();
                s.put("ServiceName", name);
                s.put("Tags", tags);
                stubs.add(s);
            });
            Map<String, Object> entry = new java.util.LinkedHashMap<>();
            entry.put("Namespace", ns);
            entry.put("Services", stubs);
            out.add(entry);
        });
        return new Indexed<>(out, index);
    }

    /** The feed filter for blocking queries on services. */
    public static Predicate<Change> watch() {
        return c -> c.topic() == Topic.Service;
    }
}
