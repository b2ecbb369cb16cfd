package dev.berth.alloc.gc;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.berth.alloc.AllocExceptions.UnknownAllocException;
import dev.berth.alloc.AllocManager.TerminalAlloc;

/**
 * What the garbage collector needs from the alloc service (implemented over {@code AllocManager}; tests use their own).
 */
public interface GcTarget {

    /** Allocs whose run ended for good; any order. */
    List<TerminalAlloc> terminalAllocs();

    /** Allocs known to the node, live and terminal. */
    int allocCount();

    /** @throws UnknownAllocException if the node does not know the alloc */
    boolean isTerminal(String allocId) throws UnknownAllocException;

    /** Destroys the alloc (dir, state, its meters); the future completes when it is gone. Idempotent. */
    CompletableFuture<Void> destroy(String allocId) throws UnknownAllocException;
}
