package dev.berth.namespace;

import java.util.List;

/**
 * Where namespaces persist (implemented in {@code state}). A put or delete moves the namespaces' table index in the same
 * transaction; {@code default} is there from the schema's creation.
 */
public interface NamespaceStore {

    /** Every namespace, by name. */
    List<Namespace> list();

    /** Adds or replaces the namespace named {@code namespace.name()}; the table index becomes its modify index. */
    void put(Namespace namespace);

    /** Removes the namespace; the table index becomes {@code index}. */
    void delete(String name, long index);

    /** The modify index of the last put or delete of any namespace. */
    long tableIndex();
}
