package dev.berth.state;

import java.time.Duration;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.berth.config.Sleeper;

/**
 * The stores' transactions, written out ({@code Spring}'s {@link TransactionTemplate}) rather than declared with
 * {@code @Transactional}: same propagation (join the caller's transaction or begin one), same rollback on any runtime
 * exception or error, same read-only flag, but no class proxy generated per store and no transaction-attribute lookup
 * on every bean of the context at start.
 *
 * <p>A write that loses a conflict is run again. H2 answers a conflict between two transactions (a row another one
 * holds past the lock timeout, a key another one inserted and has not committed, a key committed between an
 * {@code UPDATE} that found nothing and the {@code INSERT} after it) with an error rather than by waiting; each store's
 * write is a whole transaction that sets values (never adds to them) and checks what it depends on inside, so running
 * it again after the other transaction ended is what waiting would have given. Up to {@link #ATTEMPTS} runs, with a
 * short pause that doubles between them ({@link #FIRST_PAUSE}); each rerun is logged. A write inside a transaction
 * the caller began is not rerun here: the caller's transaction is the unit to rerun.
 */
final class StateTransactions {

    /** Runs of one write before its conflict is the caller's. */
    static final int ATTEMPTS = 6;
    static final Duration FIRST_PAUSE = Duration.ofMillis(20);
    private static final Logger log = LoggerFactory.getLogger(StateTransactions.class);

    private final TransactionTemplate write;
    private final TransactionTemplate read;
    private final Sleeper sleeper;

    StateTransactions(PlatformTransactionManager transactionManager) {
        this(transactionManager, Sleeper.system());
    }

    StateTransactions(PlatformTransactionManager transactionManager, Sleeper sleeper) {
        this.write = new TransactionTemplate(transactionManager);
        this.read = new TransactionTemplate(transactionManager);
        this.read.setReadOnly(true);
        this.sleeper = sleeper;
    }

    <T> T read(Supplier<T> work) {
        return read.execute(status -> work.get());
    }

    <T> T write(Supplier<T> work) {
        if (TransactionSynchronizationManager.isActualTransactionActive()) {
            return write.execute(status -> work.get());
        }
        Duration pause = FIRST_PAUSE;
        for (int attempt = 1; ; attempt++) {
            try {
                return write.execute(status -> work.get());
            } catch (TransientDataAccessException | DuplicateKeyException conflict) {
                if (attempt == ATTEMPTS) {
                    throw conflict;
                }
                log.warn("state write lost a conflict with another transaction (attempt {} of {}), running it again "
                        + "in {} ms: {}", attempt, ATTEMPTS, pause.toMillis(), conflict.getMostSpecificCause().getMessage());
                if (!paused(pause)) {
                    throw conflict;
                }
            }
            pause = pause.multipliedBy(2);
        }
    }

    void write(Runnable work) {
        write(() -> {
            work.run();
            return null;
        });
    }

    /** False when the thread was interrupted during the pause (its flag is set again): the conflict is the answer. */
    private boolean paused(Duration pause) {
        try {
            sleeper.sleep(pause);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
