package dev.berth.namespace;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The namespace store in memory, as a new node's schema starts it: {@code default} at index 1. */
public final class MemoryNamespaceStore implements NamespaceStore {

    private final Map<String, Namespace> rows = new TreeMap<>();
    private long tableIndex = 1;

    public MemoryNamespaceStore() {
        rows.put(Namespace.DEFAULT, new Namespace(Namespace.DEFAULT, "Default shared namespace", null, null, 1, 1));
    }

    @Override
    public synchronized List<Namespace> list() {
        return List.copyOf(rows.values());
    }

    @Override
    public synchronized void put(Namespace namespace) {
        rows.put(namespace.name(), namespace);
        tableIndex = namespace.modifyIndex();
    }

    @Override
    public synchronized void delete(String name, long index) {
        rows.remove(name);
        tableIndex = index;
    }

    @Override
    public synchronized long tableIndex() {
        return tableIndex;
    }
}
