package dev.berth.namespace;

import java.util.Set;

/**
 * What a feature keeps in a namespace that forbids deleting it (Nomad's checks before {@code Namespace.DeleteNamespaces}).
 * Each feature whose objects live in namespaces implements it as a bean; the namespace feature asks every one of them.
 */
public interface NamespaceUsage {

    /** The kinds of object that keep a namespace, in the order Nomad reports them. */
    enum Blocker {
        /** A job that is not dead. */
        JOBS("namespace %s has non-terminal jobs in regions: [%s]"),
        /** An allocation whose client status is not terminal. */
        ALLOCATIONS("namespace %s has non-terminal allocations in regions: [%s]"),
        /** Any variable. */
        VARIABLES("namespace %s has variables associated with it in regions: [%s]");

        private final String format;

        Blocker(String format) {
            this.format = format;
        }

        /** Nomad's text for this blocker, the namespace quoted, in the node's region. */
        String text(String namespace, String region) {
            return String.format(format, '"' + namespace + '"', region);
        }
    }

    /** What of this feature's objects is in {@code namespace} and keeps it from being deleted (empty: nothing). */
    Set<Blocker> blockers(String namespace);
}
