package dev.berth.state;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import dev.berth.config.InvalidConfigurationException;
import dev.berth.config.Sleeper;

/**
 * A damaged state database must not brick the node. Before any DataSource or Flyway exists, this probes the H2
 * file of {@code spring.datasource.url} with a plain JDBC connection (open, list the tables, read every row of the state
 * tables). If H2 cannot read it, the file is moved to {@code <state-dir>/quarantine/berth-<timestamp>.mv.db} with an
 * ERROR log line, and the agent starts on a fresh database; the start-up reconciliation then stops every task process no
 * state accounts for. The quarantined file is published as {@value #QUARANTINED_PROPERTY} for the metric.
 *
 * <p>A database that is merely in use by another process is left alone: the start waits up to {@link #LOCK_WAIT} for it
 * (an agent killed a moment ago may still be exiting), then stops with a failure analysis naming the file.
 */
public final class StateDatabaseGuard implements EnvironmentPostProcessor, Ordered {

    /** Set to the quarantined file's path when this start quarantined the database. */
    public static final String QUARANTINED_PROPERTY = "berth.state.quarantined-file";

    private static final String H2_FILE = "jdbc:h2:file:";
    // H2 ErrorCode.DATABASE_ALREADY_OPEN_1: locked by another process, not damaged
    private static final int DATABASE_ALREADY_OPEN = 90020;
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** How long a start waits for another process (a previous agent still exiting) to let go of the database. */
    static final Duration LOCK_WAIT = Duration.ofSeconds(30);
    static final Duration LOCK_POLL = Duration.ofMillis(250);

    private final Log log;
    private final Clock clock;
    private final Sleeper sleeper;

    public StateDatabaseGuard(DeferredLogFactory logs) {
        this(logs.getLog(StateDatabaseGuard.class), Clock.systemUTC(), Sleeper.system());
    }

    StateDatabaseGuard(Log log, Clock clock, Sleeper sleeper) {
        this.log = log;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    @Override
    public int getOrder() {
        // after the config data (application.yml, command line) is in the environment
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment env, SpringApplication application) {
        String url = env.getProperty("spring.datasource.url");
        if (url == null || !url.startsWith(H2_FILE)) {
            return;
        }
        String user = env.getProperty("spring.datasource.username", "sa");
        String password = env.getProperty("spring.datasource.password", "");
        check(url, user, password).ifPresent(q -> env.getPropertySources().addFirst(
                new MapPropertySource("berthStateGuard", Map.of(QUARANTINED_PROPERTY, q.toString()))));
    }

    /** Probes the database of {@code url}; quarantines its file if unreadable. Returns the quarantined file, if any. */
    Optional<Path> check(String url, String user, String password) {
        String base = url.substring(H2_FILE.length());
        int semi = base.indexOf(';');
        if (semi >= 0) {
            base = base.substring(0, semi);
        }
        Path file = Path.of(base + ".mv.db").toAbsolutePath().normalize();
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        long attempts = LOCK_WAIT.toMillis() / LOCK_POLL.toMillis();
        for (long attempt = 0; ; attempt++) {
            Probe result = probe(base, user, password);
            switch (result) {
                case Probe.Readable readable -> {
                    return Optional.empty();
                }
                case Probe.Damaged(SQLException damage) -> {
                    return Optional.of(quarantine(file, damage));
                }
                case Probe.Locked(SQLException locked) -> {
                    if (attempt >= attempts) {
                        throw new InvalidConfigurationException("The state database " + file + " is in use by another "
                                + "process; waited " + LOCK_WAIT.toSeconds() + " s for it to be released ("
                                + locked.getMessage() + ").", "Stop the other Berth agent using this data dir, or give this "
                                + "agent its own berth.data-dir. Two agents never share one state database.");
                    }
                    if (attempt == 0) {
                        String waiting = "The state database " + file + " is in use by another process (a previous agent "
                                + "still exiting?); waiting up to " + LOCK_WAIT.toSeconds() + " s for it";
                        log.warn(waiting);
                        // logging is not set up yet (this runs while the environment is prepared) and the deferred
                        // log only appears after the wait: say it now, so the operator does not watch 30 s of silence
                        System.err.println("WARN " + waiting);
                    }
                    try {
                        sleeper.sleep(LOCK_POLL);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while waiting for the state database", e);
                    }
                }
            }
        }
    }

    /** What opening the database found. */
    private sealed interface Probe {
        record Readable() implements Probe {
        }

        /** Another process holds it (H2 90020): not damage. */
        record Locked(SQLException error) implements Probe {
        }

        record Damaged(SQLException error) implements Probe {
        }
    }

    private static Probe probe(String base, String user, String password) {
        try (Connection c = DriverManager.getConnection(H2_FILE + base + ";IFEXISTS=TRUE", user, password);
             Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'PUBLIC'")) {
                java.util.List<String> tables = new java.util.ArrayList<>();
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
                // Read every row of every table, so damage in data pages shows now, not in the middle of a restore.
                for (String t : tables) {
                    try (ResultSet all = s.executeQuery("SELECT * FROM \"" + t.replace("\"", "\"\"") + "\"")) {
                        int cols = all.getMetaData().getColumnCount();
                        while (all.next()) {
                            for (int i = 1; i <= cols; i++) {
                                all.getString(i);
                            }
                        }
                    }
                }
            }
            return new Probe.Readable();
        } catch (SQLException e) {
            return e.getErrorCode() == DATABASE_ALREADY_OPEN ? new Probe.Locked(e) : new Probe.Damaged(e);
        } catch (RuntimeException e) {
            // H2 may throw its internal MVStoreException unwrapped on a garbage file
            return new Probe.Damaged(new SQLException(e.toString(), e));
        }
    }

    private Path quarantine(Path file, SQLException damage) {
        Path dir = file.getParent().resolve("quarantine");
        String name = file.getFileName().toString();
        String stem = name.substring(0, name.length() - ".mv.db".length());
        Path target = dir.resolve(stem + "-" + STAMP.format(clock.instant()) + ".mv.db");
        try {
            Files.createDirectories(dir);
            Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
            Path trace = file.resolveSibling(stem + ".trace.db");
            if (Files.exists(trace)) {
                Files.move(trace, dir.resolve(target.getFileName().toString().replace(".mv.db", ".trace.db")));
            }
        } catch (IOException e) {
            throw new IllegalStateException("state database " + file + " is damaged (" + damage.getMessage()
                    + ") and could not be moved to " + dir + ": " + e.getMessage(), e);
        }
        log.error("STATE DATABASE DAMAGED: " + file + " could not be read (" + firstLine(damage.getMessage())
                + "); moved it to " + target + " and starting with an empty state. Task processes no state accounts for"
                + " will be stopped; allocations must be resubmitted.");
        return target;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
