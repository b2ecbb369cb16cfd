package dev.berth.alloc.store;

/** The store contract against the in-memory implementation the runner tests use. */
class InMemoryAllocStateStoreTest extends AllocStateStoreContract {

    private final InMemoryAllocStateStore store = new InMemoryAllocStateStore();

    @Override
    protected AllocStateStore store() {
        return store;
    }
}
