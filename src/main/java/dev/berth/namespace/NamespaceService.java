package dev.berth.namespace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import dev.berth.events.Change;
import dev.berth.events.ChangeFeed;
import dev.berth.events.Indexed;
import dev.berth.events.Topic;

/**
 * Nomad's {@code Namespace} endpoint on one node ({@code nomad/namespace_endpoint.go}, its state store and its
 * community-edition checks), with Nomad's error texts: a name of 1 to 128 letters, digits and dashes, a description of
 * at most 256 characters, no quota and none of the enterprise configurations; a job only with the task drivers and network
 * modes the capabilities allow ({@link #refusal}); {@code default} is never deleted, and no
 * namespace is while a job, an allocation or a variable keeps it ({@link NamespaceUsage}). Held in memory, written
 * through to the {@link NamespaceStore}; every write takes the node's next index. Writes are serialized on this object.
 */
@Component
public class NamespaceService {

    private static final Pattern VALID_NAME = Pattern.compile("^[a-zA-Z0-9-]{1,128}$");
    private static final int MAX_DESCRIPTION = 256;
    /** The one region of a Berth node (Nomad names the regions that keep a namespace). */
    private static final String REGION = "global";

    private final NamespaceStore store;
    private final ChangeFeed feed;
    /**
     * Asked only when a namespace is deleted: the features that keep one (jobs, allocations, variables) themselves
     * need namespaces (a job's is checked at registration), so they are looked up then rather than at construction.
     */
    private final Supplier<List<NamespaceUsage>> usages;
    private final Map<String, Namespace> namespaces = new ConcurrentHashMap<>();

    @Autowired
    public NamespaceService(NamespaceStore store, ChangeFeed feed, ObjectProvider<NamespaceUsage> usages) {
        this(store, feed, () -> usages.orderedStream().toList());
    }

    public NamespaceService(NamespaceStore store, ChangeFeed feed, List<NamespaceUsage> usages) {
        this(store, feed, supplierOf(List.copyOf(usages)));
    }

    private NamespaceService(NamespaceStore store, ChangeFeed feed, Supplier<List<NamespaceUsage>> usages) {
        this.store = store;
        this.feed = feed;
        this.usages = usages;
        store.list().forEach((n) -> namespaces.put(n.name(), n));
    }

    private static Supplier<List<NamespaceUsage>> supplierOf(List<NamespaceUsage> usages) {
        return () -> usages;
    }

    /** Whether {@code name} exists ({@code default} always does). */
    public boolean exists(String name) {
        return Namespace.DEFAULT.equals(name) || namespaces.containsKey(name);
    }

    /** The namespaces whose name starts with {@code prefix}, by name, with the namespaces' table index. */
    public Indexed<List<Namespace>> list(String prefix) {
        long index = store.tableIndex();
        List<Namespace> out = namespaces.values().stream().filter((n) -> n.name().startsWith(prefix))
                .sorted(Comparator.comparing(Namespace::name)).toList();
        return new Indexed<>(out, index);
    }

    /** The namespace with its own modify index; absent: the namespaces' table index. */
    public Indexed<Optional<Namespace>> get(String name) {
        Namespace n = namespaces.get(name);
        return n == null ? new Indexed<>(Optional.empty(), store.tableIndex()) : new Indexed<>(Optional.of(n), n.modifyIndex());
    }

    /** Which changes move what {@link #list} and {@link #get} answer (for a blocking query). */
    public static Predicate<Change> changes() {
        return (c) -> c.topic() == Topic.Namespace;
    }

    /** Creates or updates the namespace (its create index kept) and returns the write's index. */
    public synchronized long upsert(NamespaceUpsert request) {
        validate(request);
        if (!request.quota().isEmpty()) {
            throw new NamespaceException(NamespaceException.Kind.INVALID,
                    "namespace \"" + request.name() + "\" using non-existent quota \"" + request.quota() + "\"");
        }
        try (var p = feed.begin()) {
            long index = p.index();
            Namespace existing = namespaces.get(request.name());
            Namespace next = new Namespace(request.name(), request.description(), request.meta(), request.capabilities(),
                    existing == null ? index : existing.createIndex(), index);
            store.put(next);
            namespaces.put(next.name(), next);
            p.publish(Topic.Namespace, "NamespaceUpserted", next.name(), next.name(), next);
            return index;
        }
    }

    /**
     * Deletes the namespace and returns the write's index. Refused for {@code default}, for a namespace that does not
     * exist, and while a feature still keeps objects in it (every blocker in Nomad's multi-error text).
     */
    public synchronized long delete(String name) {
        if (Namespace.DEFAULT.equals(name)) {
            throw new NamespaceException(NamespaceException.Kind.INVALID, "can not delete default namespace");
        }
        if (!namespaces.containsKey(name)) {
            throw new NamespaceException(NamespaceException.Kind.NOT_FOUND, "namespace not found");
        }
        Set<NamespaceUsage.Blocker> blockers = EnumSet.noneOf(NamespaceUsage.Blocker.class);
        usages.get().forEach((u) -> blockers.addAll(u.blockers(name)));
        if (!blockers.isEmpty()) {
            throw new NamespaceException(NamespaceException.Kind.NOT_EMPTY,
                    multiError(blockers.stream().map((b) -> b.text(name, REGION)).toList()));
        }
        try (var p = feed.begin()) {
            store.delete(name, p.index());
            Namespace gone = namespaces.remove(name);
            p.publish(Topic.Namespace, "NamespaceDeleted", name, name, gone);
            return p.index();
        }
    }

    /**
     * Nomad's namespace check of a job being registered ({@code jobNamespaceConstraintCheckHook}): the namespace exists,
     * and its capabilities allow the job's task drivers ({@code drivers}, one per task) and group network modes
     * ({@code networkModes}, one per group network, {@code host} when unset). Empty: allowed; else Nomad's text.
     */
    public Optional<String> refusal(String namespace, String jobId, List<String> drivers, List<String> networkModes) {
        Namespace ns = namespaces.get(namespace);
        if (ns == null && !Namespace.DEFAULT.equals(namespace)) {
            return Optional.of("job \"" + jobId + "\" is in nonexistent namespace \"" + namespace + "\"");
        }
        if (ns == null || ns.capabilities() == null) {
            return Optional.empty();
        }
        List<String> refusedDrivers = ns.capabilities().refusedDrivers(drivers);
        if (!refusedDrivers.isEmpty()) {
            return Optional.of(refusedDrivers.size() == 1
                    ? "used task driver " + quoted(refusedDrivers.getFirst()) + " is not allowed in namespace " + quoted(namespace)
                    : "used task drivers " + quoted(refusedDrivers) + " are not allowed in namespace " + quoted(namespace));
        }
        List<String> refusedModes = ns.capabilities().refusedNetworkModes(networkModes);
        if (!refusedModes.isEmpty()) {
            return Optional.of(refusedModes.size() == 1
                    ? "used group network mode " + quoted(refusedModes.getFirst()) + " is not allowed in namespace " + quoted(namespace)
                    : "used group network modes " + quoted(refusedModes) + " are not allowed in namespace " + quoted(namespace));
        }
        return Optional.empty();
    }

    /** Go's {@code %q} of a string. */
    private static String quoted(String s) {
        return '"' + s + '"';
    }

    /** Go's {@code %q} of a string slice: {@code ["a" "b"]}. */
    private static String quoted(List<String> l) {
        return "[" + String.join(" ", l.stream().map(NamespaceService::quoted).toList()) + "]";
    }

    /** Nomad's {@code Namespace.Validate} and community-edition checks, in its order and multi-error text. */
    private static void validate(NamespaceUpsert request) {
        List<String> errors = new ArrayList<>();
        if (!VALID_NAME.matcher(request.name()).matches()) {
            errors.add("invalid name \"" + request.name() + "\". Must match regex " + VALID_NAME.pattern());
        }
        if (request.description().length() > MAX_DESCRIPTION) {
            errors.add("description longer than " + MAX_DESCRIPTION);
        }
        if (request.configured().contains("NodePoolConfiguration")) {
            errors.add("invalid node pool configuration: Node Pools Governance is unlicensed.");
        }
        if (request.configured().contains("VaultConfiguration")) {
            errors.add("invalid vault configuration: Multi-Cluster Vault is unlicensed.");
        }
        if (request.configured().contains("ConsulConfiguration")) {
            errors.add("invalid consul configuration: Multi-Cluster Consul is unlicensed.");
        }
        if (request.configured().contains("RequiredExtraClaims") || request.configured().contains("OptionalExtraClaims")) {
            errors.add("Berth adds no extra claims to workload identities");
        }
        if (!errors.isEmpty()) {
            throw new NamespaceException(NamespaceException.Kind.INVALID,
                    "Invalid namespace \"" + request.name() + "\": " + multiError(errors));
        }
    }

    /** Nomad's multi-error text: a count line, each error on its own starred line, a blank line. */
    static String multiError(List<String> errors) {
        StringBuilder sb = new StringBuilder(errors.size() == 1 ? "1 error occurred:\n" : errors.size() + " errors occurred:\n");
        errors.forEach((e) -> sb.append("\t* ").append(e).append('\n'));
        return sb.append('\n').toString();
    }
}
