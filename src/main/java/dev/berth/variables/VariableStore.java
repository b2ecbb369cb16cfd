package dev.berth.variables;

import java.util.List;
import java.util.Optional;

/**
 * Where variables persist (implemented in {@code state}): each row is a variable's metadata in clear and its items
 * sealed ({@link Sealed}), plus the variables' table index (the node modify index of the last write or delete of any
 * variable, which list queries answer for). Each call is one transaction.
 */
public interface VariableStore {

    /** A variable's items as stored: the ID of the key that sealed them, and nonce plus ciphertext. */
    record Sealed(String keyId, byte[] data) {
    }

    /** A stored variable: metadata in clear, items sealed. */
    record Row(VariableMeta meta, Sealed items) {
    }

    Optional<Row> get(String namespace, String path);

    /** Every variable's metadata, ordered by namespace then path (Nomad's ID index), namespace {@code *} for all. */
    List<VariableMeta> list(String namespace, String prefix);

    /** Every variable whose lock is held, in any namespace. */
    List<VariableMeta> locked();

    /** Adds or replaces the row, and sets the table index to its modify index. */
    void put(Row row);

    /** Removes the variable (if it is there) and sets the table index to {@code index}. */
    void delete(String namespace, String path, long index);

    /** The table index: 0 before any variable was ever written. */
    long tableIndex();
}
