package dev.berth.variables;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;

import org.springframework.stereotype.Component;

import dev.berth.events.Change;
import dev.berth.events.Indexed;
import dev.berth.events.Topic;
import dev.berth.namespace.NamespaceService;
import dev.berth.variables.VariableOutcome.Conflict;
import dev.berth.variables.VariableOutcome.Deleted;
import dev.berth.variables.VariableOutcome.Written;
import dev.berth.variables.VariableStore.Row;

/**
 * Reads, lists and writes variables as Nomad's {@code Variables} endpoint does ({@code nomad/variables_endpoint.go},
 * {@code nomad/state/state_store_variables.go}): a check-and-set write ({@code cas}) is refused with the current
 * variable when its index is stale ({@code 0} means "only if absent"); a locked variable is written only by its lock's
 * holder (who proves it with the lock ID) and deleted by no one until the lock is released or lapses. A write into a
 * namespace that does not exist is refused ({@link NamespaceService#exists}).
 */
@Component
public class VariableService {

    /** One page of a listing and the token of the next one ({@code X-Nomad-NextToken}), empty on the last page. */
    public record Page(List<VariableMeta> variables, String nextToken) {
    }

    private final VariableStore store;
    private final VariableWriter writer;
    private final NamespaceService namespaces;

    VariableService(VariableStore store, VariableWriter writer, NamespaceService namespaces) {
        this.store = store;
        this.writer = writer;
        this.namespaces = namespaces;
    }

    /** The variable (absent: the variables' table index instead of its own), for a blocking read. */
    public Indexed<Optional<Variable>> read(String namespace, String path) {
        Optional<Row> row = store.get(namespace, path);
        return row.map(r -> new Indexed<>(Optional.of(writer.open(r)), r.meta().modifyIndex()))
                .orElseGet(() -> new Indexed<>(Optional.empty(), store.tableIndex()));
    }

    /**
     * The metadata of the variables under {@code prefix} in {@code namespace} ({@code *}: every namespace), ordered by
     * namespace and path (reversed with {@code reverse}), paged as Nomad pages: a page starts at the first variable
     * whose token ({@code <namespace>.<path>}) is not before {@code nextToken}; with {@code perPage} above 0, the token
     * of the first variable past the page is the next token.
     */
    public Indexed<Page> list(String namespace, String prefix, String nextToken, int perPage, boolean reverse) {
        long index = store.tableIndex();
        List<VariableMeta> all = new ArrayList<>(store.list(namespace, prefix));
        Comparator<VariableMeta> order = Comparator.comparing(VariableMeta::namespace).thenComparing(VariableMeta::path);
        all.sort(reverse ? order.reversed() : order);
        List<VariableMeta> page = new ArrayList<>();
        boolean started = nextToken == null || nextToken.isEmpty();
        for (VariableMeta meta : all) {
            String token = meta.namespace() + "." + meta.path();
            int compared = started ? 0 : token.compareTo(nextToken);
            if (!started && (reverse ? compared > 0 : compared < 0)) {
                continue;
            }
            started = true;
            if (perPage > 0 && page.size() == perPage) {
                return new Indexed<>(new Page(page, token), index);
            }
            page.add(meta);
        }
        return new Indexed<>(new Page(page, ""), index);
    }

    /**
     * Writes {@code items} at {@code path} ({@code cas}: only if the variable's modify index is that, 0 meaning absent).
     * {@code lock} carries the holder's lock ID when the variable is locked; it cannot define a lock (that is an acquire).
     */
    public VariableOutcome put(String namespace, String path, Map<String, String> items, LockRequest lock, OptionalLong cas) {
        if (lock.definesLock()) {
            throw VariableRules.invalid("variable should not contain lock definition");
        }
        VariableRules.checkWritableNamespace(namespace, path, namespaces.exists(namespace));
        VariableRules.checkItems(items);
        VariableRules.checkPath(path);
        return writer.locked(() -> {
            Optional<Row> existing = store.get(namespace, path);
            if (cas.isPresent()) {
                Optional<Conflict> stale = staleIndex(namespace, path, existing, cas.getAsLong());
                if (stale.isPresent()) {
                    return stale.get();
                }
            }
            VariableLock held = existing.map(row -> row.meta().lock()).orElse(null);
            if (held != null && !held.id().equals(lock.id())) {
                return new Conflict(Variable.zero(namespace, path));
            }
            Variable written = writer.write(namespace, path, items, held, existing);
            return new Written(written, written.meta().modifyIndex());
        });
    }

    /** Deletes the variable ({@code cas}: only if its modify index is that, 0 meaning "only if absent"). */
    public VariableOutcome delete(String namespace, String path, OptionalLong cas) {
        VariableRules.checkWritableNamespace(namespace, path, namespaces.exists(namespace));
        return writer.locked(() -> {
            Optional<Row> existing = store.get(namespace, path);
            if (cas.isPresent()) {
                Optional<Conflict> stale = staleIndex(namespace, path, existing, cas.getAsLong());
                if (stale.isPresent()) {
                    return stale.get();
                }
            }
            if (existing.isEmpty()) {
                return new Deleted(store.tableIndex());
            }
            if (existing.get().meta().locked()) {
                return new Conflict(Variable.zero(namespace, path)); // a delete carries no lock ID: release the lock first
            }
            return new Deleted(writer.delete(existing.get()));
        });
    }

    /** A check-and-set's conflict, if {@code cas} is not the current index (0: the variable must be absent). */
    private Optional<Conflict> staleIndex(String namespace, String path, Optional<Row> existing, long cas) {
        if (existing.isEmpty()) {
            return cas == 0 ? Optional.empty() : Optional.of(new Conflict(Variable.zero(namespace, path)));
        }
        if (cas != 0 && cas == existing.get().meta().modifyIndex()) {
            return Optional.empty();
        }
        return Optional.of(new Conflict(current(existing.get())));
    }

    /** The current variable for a conflict's answer: in clear, or only its metadata when this node cannot open it. */
    private Variable current(Row row) {
        try {
            return writer.open(row);
        } catch (VariableException unreadable) {
            return new Variable(row.meta(), Map.of());
        }
    }

    /** The feed filter for blocking queries on the variables of {@code namespace} ({@code *}: all), or one path. */
    public static Predicate<Change> watch(String namespace, String path) {
        return c -> c.topic() == Topic.Variable && (VariableRules.ALL_NAMESPACES.equals(namespace)
                || c.namespace().equals(namespace)) && (path == null || c.key().equals(path));
    }
}
