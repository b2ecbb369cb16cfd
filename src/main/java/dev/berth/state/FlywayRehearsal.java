package dev.berth.state;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * Flyway's first run, rehearsed on a thread of its own while the agent's context starts, so that the real migration of
 * a new state database finds Flyway's and Spring Boot's Flyway classes loaded and initialised (the AOT cache holds what
 * a restart loads, which is none of them). The rehearsal is the agent's own path ({@link FlywaySchemaMigration}: Boot's
 * Flyway configuration in a short-lived context) applying the bundled scripts to a private in-memory H2 database that
 * lives only while the rehearsal holds a connection to it. It reads none of the agent's settings and touches nothing
 * of the agent's: its environment holds one key, {@code spring.flyway.loggers}, naming {@link SilentFlywayLog}, so
 * Flyway logs nothing of it. Whatever goes wrong with it is logged at DEBUG and changes nothing: the real migration
 * then simply loads what it needs itself.
 *
 * <p>Flyway's choice of logger is global ({@code org.flywaydb.core.api.logging.LogFactory} follows the configuration
 * of the last {@code Flyway} built), so the real migration waits for the rehearsal to end ({@link #awaitEnd}) before
 * it builds its own.
 */
final class FlywayRehearsal {

    /** The bean under which the agent's context holds a rehearsal it started. */
    static final String BEAN_NAME = "berthFlywayRehearsal";
    /** How long the real migration waits for a rehearsal; past it, it goes on alone. */
    static final Duration WAIT_LIMIT = Duration.ofSeconds(10);

    private static final Log LOG = LogFactory.getLog(FlywayRehearsal.class);

    private final Thread thread;
    private volatile Throwable failure;

    private FlywayRehearsal(ClassLoader classLoader) {
        this.thread = Thread.ofPlatform().daemon().name("berth-flyway-rehearsal").unstarted(() -> {
            long start = System.nanoTime();
            try {
                rehearse(classLoader);
                if (LOG.isDebugEnabled()) {
                    LOG.debug("Flyway rehearsed on an in-memory database in " + (System.nanoTime() - start) / 1_000_000 + " ms");
                }
            } catch (Throwable e) { // nothing of a rehearsal may reach the agent: the migration does the work itself
                failure = e;
                LOG.debug("Flyway's rehearsal failed; the migration loads Flyway itself", e);
            }
        });
    }

    /** Starts a rehearsal with the classes of {@code classLoader}. */
    static FlywayRehearsal start(ClassLoader classLoader) {
        FlywayRehearsal rehearsal = new FlywayRehearsal(classLoader);
        rehearsal.thread.start();
        return rehearsal;
    }

    /** Boot's Flyway configuration migrates a private in-memory database, silently. */
    static void rehearse(ClassLoader classLoader) throws SQLException {
        String url = "jdbc:h2:mem:berth-flyway-rehearsal-" + UUID.randomUUID();
        SimpleDriverDataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(), url, "sa", "");
        try (Connection keep = dataSource.getConnection()) { // an in-memory database ends with its last connection
            DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
            beans.registerSingleton("dataSource", dataSource);
            new FlywaySchemaMigration(beans, environment(), classLoader).migrate();
        }
    }

    /** Nothing from the system (no {@code SPRING_FLYWAY_URL} reaches it): Flyway's defaults and a silent logger. */
    static StandardEnvironment environment() {
        StandardEnvironment environment = new StandardEnvironment();
        MutablePropertySources sources = environment.getPropertySources();
        sources.remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
        sources.remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        sources.addFirst(new MapPropertySource("berthFlywayRehearsal",
                Map.of("spring.flyway.loggers", SilentFlywayLog.CLASS_NAME)));
        return environment;
    }

    /**
     * Waits until the rehearsal has ended, at most {@code limit}. True when it has ended (successfully or not); an
     * interrupt ends the wait, the interrupt flag kept.
     */
    boolean awaitEnd(Duration limit) {
        try {
            if (thread.join(limit)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        LOG.warn("Flyway's rehearsal on an in-memory database has not ended after " + limit.toSeconds()
                + " s; migrating without waiting for it");
        return false;
    }

    /** What ended the rehearsal early, if anything (null otherwise, and while it runs). */
    Throwable failure() {
        return failure;
    }
}
