package dev.berth.variables;

import javax.crypto.spec.SecretKeySpec;

import dev.berth.events.ChangeFeed;
import dev.berth.events.IndexStore;
import dev.berth.events.NodeIndex;
import dev.berth.namespace.MemoryNamespaceStore;
import dev.berth.namespace.NamespaceService;
import dev.berth.support.TestClock;
import dev.berth.variables.NodeKeyFile.NodeKey;

/** The variables feature in memory: store, change feed, writer under a fixed node key, on a clock the test moves. */
final class VariableFixture {

    final TestClock clock = new TestClock();
    final MemoryVariableStore store = new MemoryVariableStore();
    final ChangeFeed feed = new ChangeFeed(new NodeIndex(new IndexStore() {
        long high;

        @Override
        public long highWater() {
            return high;
        }

        @Override
        public void reserveThrough(long highWater) {
            high = highWater;
        }
    }));
    final VariableWriter writer = new VariableWriter(store, feed,
            new VariableCipher(() -> new NodeKey("k1", new SecretKeySpec(new byte[32], "AES"))), clock);
    final NamespaceService namespaces = new NamespaceService(new MemoryNamespaceStore(), feed, java.util.List.of());
    final VariableService variables = new VariableService(store, writer, namespaces);
    final VariableLocks locks = new VariableLocks(store, writer, clock, namespaces);
}
