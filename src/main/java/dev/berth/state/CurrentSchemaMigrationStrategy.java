package dev.berth.state;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.Location;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.configuration.Configuration;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.stereotype.Component;

/**
 * Runs Flyway only when there is something for it to do. A restart on a database that already holds every migration
 * of this build skips Flyway's scan, checksumming and validation of every script: a cheap look (plain JDBC) at the
 * schema history table decides. Flyway migrates (with its validation, exactly as without this strategy) when the
 * database is new, lacks a bundled migration, has a failed or unexpected row (baseline, repeatable, undo, ...), when the
 * history cannot be read, or when the configuration holds anything the look does not understand (non-classpath or
 * wildcard locations, repeatable or callback scripts, Java migrations or callbacks).
 *
 * <p>The versions of this build come from the bundled script names themselves, never from a constant.
 */
@Component
class CurrentSchemaMigrationStrategy implements FlywayMigrationStrategy {

    private static final Log LOG = LogFactory.getLog(CurrentSchemaMigrationStrategy.class);
    private static final String SQL_MIGRATION = "SQL";
    /** Flyway's own marker rows: the history table (Flyway 11+) or a schema it created. */
    private static final Set<String> MARKERS = Set.of("TABLE", "SCHEMA");

    @Override
    public void migrate(Flyway flyway) {
        long start = System.nanoTime();
        Optional<MigrationVersion> current = currentVersion(flyway.getConfiguration());
        if (current.isPresent()) {
            LOG.info("State database schema is at version " + current.get() + ", the newest migration of this build: "
                    + "Flyway not run (decided in " + (System.nanoTime() - start) / 1_000_000 + " ms)");
            return;
        }
        flyway.migrate();
    }

    /**
     * The schema version when the database holds exactly the bundled migrations, each applied successfully; empty when
     * Flyway must run.
     */
    static Optional<MigrationVersion> currentVersion(Configuration config) {
        Optional<SortedSet<MigrationVersion>> bundled = bundledVersions(config);
        if (bundled.isEmpty() || bundled.get().isEmpty()) {
            return Optional.empty();
        }
        Optional<SortedSet<MigrationVersion>> applied = appliedVersions(config);
        if (applied.isEmpty() || !applied.get().equals(bundled.get())) {
            return Optional.empty();
        }
        return Optional.of(bundled.get().last());
    }

    /**
     * The versions of the versioned SQL scripts in the configured locations; empty when anything else is there or
     * configured (Flyway must see it).
     */
    static Optional<SortedSet<MigrationVersion>> bundledVersions(Configuration config) {
        if (config.getCallbacks().length > 0 || config.getJavaMigrations().length > 0
                || config.getResourceProvider() != null || config.getJavaMigrationClassProvider() != null) {
            return Optional.empty();
        }
        PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver(config.getClassLoader());
        SortedSet<MigrationVersion> versions = new TreeSet<>();
        int scripts = 0;
        for (Location location : config.getLocations()) {
            if (!location.isClassPath() || location.getPathRegex() != null) {
                return Optional.empty();
            }
            Resource[] found;
            try {
                found = resolver.getResources("classpath*:" + location.getRootPath() + "/**/*");
            } catch (IOException e) {
                return Optional.empty();
            }
            for (Resource resource : found) {
                String name = resource.getFilename();
                if (name == null || name.isEmpty() || name.endsWith("/") || !resource.isReadable()) {
                    continue; // a directory
                }
                Optional<MigrationVersion> version = versionOf(name, config);
                if (version.isEmpty()) {
                    return Optional.empty();
                }
                versions.add(version.get());
                scripts++;
            }
        }
        // two scripts of one version: Flyway reports it
        return scripts == versions.size() ? Optional.of(versions) : Optional.empty();
    }

    /** {@code V<version>__<description><suffix>} as Flyway names a versioned SQL migration; anything else is empty. */
    static Optional<MigrationVersion> versionOf(String fileName, Configuration config) {
        String prefix = config.getSqlMigrationPrefix();
        String separator = config.getSqlMigrationSeparator();
        boolean sql = false;
        for (String suffix : config.getSqlMigrationSuffixes()) {
            sql |= fileName.endsWith(suffix);
        }
        int end = fileName.indexOf(separator, prefix.length());
        if (!sql || !fileName.startsWith(prefix) || end <= prefix.length()) {
            return Optional.empty();
        }
        try {
            return Optional.of(MigrationVersion.fromVersion(fileName.substring(prefix.length(), end).replace('_', '.')));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Every version in the schema history when each row is a successful versioned SQL migration (or one of Flyway's
     * marker rows); else empty.
     */
    static Optional<SortedSet<MigrationVersion>> appliedVersions(Configuration config) {
        DataSource dataSource = config.getDataSource();
        if (dataSource == null) {
            return Optional.empty();
        }
        String schema = config.getDefaultSchema() != null ? config.getDefaultSchema()
                : config.getSchemas().length > 0 ? config.getSchemas()[0] : null;
        String table = (schema == null ? "" : quote(schema) + ".") + quote(config.getTable());
        SortedSet<MigrationVersion> versions = new TreeSet<>();
        int rows = 0;
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet history = statement.executeQuery("SELECT \"version\", \"type\", \"success\" FROM " + table)) {
            while (history.next()) {
                String version = history.getString(1);
                String type = history.getString(2);
                if (!history.getBoolean(3)) {
                    return Optional.empty();
                }
                if (MARKERS.contains(type)) {
                    continue;
                }
                if (version == null || !SQL_MIGRATION.equals(type)) {
                    return Optional.empty();
                }
                versions.add(MigrationVersion.fromVersion(version));
                rows++;
            }
        } catch (SQLException | RuntimeException e) {
            // no history yet (a new database) or one this look does not understand: Flyway decides
            return Optional.empty();
        }
        return rows == versions.size() ? Optional.of(versions) : Optional.empty();
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
