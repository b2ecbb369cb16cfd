package dev.berth.variables;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The store port in memory, ordered as the H2 store orders (namespace, then path); for the feature's unit tests. */
final class MemoryVariableStore implements VariableStore {

    private final Map<String, Row> rows = new TreeMap<>();
    private long tableIndex;

    private static String key(String namespace, String path) {
        return namespace + "\u0000" + path;
    }

    @Override
    public synchronized Optional<Row> get(String namespace, String path) {
        return Optional.ofNullable(rows.get(key(namespace, path)));
    }

    @Override
    public synchronized List<VariableMeta> list(String namespace, String prefix) {
        return rows.values().stream().map(Row::meta)
                .filter(m -> ("*".equals(namespace) || m.namespace().equals(namespace)) && m.path().startsWith(prefix)).toList();
    }

    @Override
    public synchronized List<VariableMeta> locked() {
        return rows.values().stream().map(Row::meta).filter(VariableMeta::locked).toList();
    }

    @Override
    public synchronized void put(Row row) {
        rows.put(key(row.meta().namespace(), row.meta().path()), row);
        tableIndex = row.meta().modifyIndex();
    }

    @Override
    public synchronized void delete(String namespace, String path, long index) {
        rows.remove(key(namespace, path));
        tableIndex = index;
    }

    @Override
    public synchronized long tableIndex() {
        return tableIndex;
    }
}
