package dev.berth.variables;

import java.util.Objects;

/**
 * What a variable is apart from its items (Nomad's {@code VariableMetadata}): where it lives, its lock if one is held,
 * and the node modify indexes and times (Unix nanoseconds) of its creation and last change.
 *
 * @param lock null when no lock is held
 */
public record VariableMeta(String namespace, String path, VariableLock lock, long createIndex, long createTime,
        long modifyIndex, long modifyTime) {

    public VariableMeta {
        Objects.requireNonNull(namespace, "'namespace' must not be null");
        Objects.requireNonNull(path, "'path' must not be null");
    }

    /** Nomad's "plausible zero value": only the namespace and path, what a conflict shows when it may show nothing else. */
    public static VariableMeta zero(String namespace, String path) {
        return new VariableMeta(namespace, path, null, 0, 0, 0, 0);
    }

    public VariableMeta withLock(VariableLock newLock) {
        return new VariableMeta(namespace, path, newLock, createIndex, createTime, modifyIndex, modifyTime);
    }

    public VariableMeta modified(long index, long time) {
        return new VariableMeta(namespace, path, lock, createIndex, createTime, index, time);
    }

    public boolean locked() {
        return lock != null;
    }

    /** The lock's ID, or null when none is held. */
    public String lockId() {
        return lock == null ? null : lock.id();
    }
}
