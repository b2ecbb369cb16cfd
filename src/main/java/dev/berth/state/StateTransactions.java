package dev.berth.state;

import java.util.function.Supplier;

import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The stores' transactions, written out ({@code Spring}'s {@link TransactionTemplate}) rather than declared with
 * {@code @Transactional}: same propagation (join the caller's transaction or begin one), same rollback on any runtime
 * exception or error, same read-only flag, but no class proxy generated per store and no transaction-attribute lookup
 * on every bean of the context at start.
 */
final class StateTransactions {

    private final TransactionTemplate write;
    private final TransactionTemplate read;

    StateTransactions(PlatformTransactionManager transactionManager) {
        this.write = new TransactionTemplate(transactionManager);
        this.read = new TransactionTemplate(transactionManager);
        this.read.setReadOnly(true);
    }

    <T> T read(Supplier<T> work) {
        return read.execute(status -> work.get());
    }

    <T> T write(Supplier<T> work) {
        return write.execute(status -> work.get());
    }

    void write(Runnable work) {
        write.executeWithoutResult(status -> work.run());
    }
}
