package dev.berth.state;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

import javax.sql.DataSource;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * The cheap look that decides whether Flyway must run, without Flyway: the versions of the {@code V<version>__*.sql}
 * scripts bundled in the configured locations against the rows of the schema history table (one query). The database
 * is current when it holds exactly the bundled versions, each applied successfully. Anything the look does not
 * understand leaves the decision to Flyway: the look then answers "not current".
 *
 * <p>The settings are Spring Boot's {@code spring.flyway.*} keys with Flyway's defaults; a test compares them with
 * the configuration Flyway itself builds.
 *
 * @param locations  {@code spring.flyway.locations}
 * @param table      the schema history table
 * @param schema     the schema holding it ({@code default-schema}, else the first of {@code schemas}), or null
 * @param prefix     the versioned SQL migration prefix ({@code V})
 * @param separator  the separator between version and description ({@code __})
 * @param suffixes   the SQL migration suffixes ({@code .sql})
 * @param understood false when a setting asks for something this look cannot see (another DataSource, callback
 *                   locations): Flyway must decide
 */
record SchemaLook(List<String> locations, String table, String schema, String prefix, String separator,
        List<String> suffixes, boolean understood) {

    private static final String SQL_MIGRATION = "SQL";
    /** Flyway's own marker rows: the history table (Flyway 11+) or a schema it created. */
    private static final Set<String> MARKERS = Set.of("TABLE", "SCHEMA");
    private static final String CLASSPATH = "classpath:";

    SchemaLook {
        locations = List.copyOf(locations);
        suffixes = List.copyOf(suffixes);
    }

    /** Boot's {@code spring.flyway.*} keys as Boot would hand them to Flyway. */
    static SchemaLook of(Environment environment) {
        Binder binder = Binder.get(environment);
        Bindable<List<String>> list = Bindable.listOf(String.class);
        String defaultSchema = binder.bind("spring.flyway.default-schema", String.class).orElse(null);
        List<String> schemas = binder.bind("spring.flyway.schemas", list).orElse(List.of());
        String schema = defaultSchema != null ? defaultSchema : schemas.isEmpty() ? null : schemas.getFirst();
        boolean otherDataSource = binder.bind("spring.flyway.url", String.class).isBound()
                || binder.bind("spring.flyway.user", String.class).isBound();
        boolean callbackLocations = !binder.bind("spring.flyway.callback-locations", list).orElse(List.of()).isEmpty();
        return new SchemaLook(
                binder.bind("spring.flyway.locations", list).orElse(List.of("classpath:db/migration")),
                binder.bind("spring.flyway.table", String.class).orElse("flyway_schema_history"),
                schema,
                binder.bind("spring.flyway.sql-migration-prefix", String.class).orElse("V"),
                binder.bind("spring.flyway.sql-migration-separator", String.class).orElse("__"),
                binder.bind("spring.flyway.sql-migration-suffixes", list).orElse(List.of(".sql")),
                !otherDataSource && !callbackLocations);
    }

    /** The schema version when the database holds exactly the bundled migrations, each applied; else empty. */
    Optional<SchemaVersion> currentVersion(DataSource dataSource, ClassLoader classLoader) {
        if (!understood) {
            return Optional.empty();
        }
        // the history first: a new database has none, and Flyway lists the scripts itself then
        Optional<SortedSet<SchemaVersion>> applied = appliedVersions(dataSource);
        if (applied.isEmpty() || applied.get().isEmpty()) {
            return Optional.empty();
        }
        Optional<SortedSet<SchemaVersion>> bundled = bundledVersions(classLoader);
        if (bundled.isEmpty() || bundled.get().isEmpty() || !applied.get().equals(bundled.get())) {
            return Optional.empty();
        }
        return Optional.of(bundled.get().last());
    }

    /**
     * The versions of the versioned SQL scripts in the configured locations; empty when anything else is there or
     * configured (Flyway must see it). Only the locations' own entries are listed: {@code classpath*:<root>/**}.
     */
    Optional<SortedSet<SchemaVersion>> bundledVersions(ClassLoader classLoader) {
        PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver(classLoader);
        SortedSet<SchemaVersion> versions = new TreeSet<>();
        int scripts = 0;
        for (String location : locations) {
            Optional<String> root = classpathRoot(location);
            if (root.isEmpty()) {
                return Optional.empty();
            }
            Resource[] found;
            try {
                found = resolver.getResources("classpath*:" + root.get() + "/**/*");
            } catch (IOException e) {
                return Optional.empty();
            }
            for (Resource resource : found) {
                String name = resource.getFilename();
                if (name == null || name.isEmpty() || name.endsWith("/") || !resource.isReadable()) {
                    continue; // a directory
                }
                Optional<SchemaVersion> version = versionOf(name);
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

    /**
     * The directory of a plain class-path location as Flyway reads it ({@code classpath:} or no prefix, surrounding
     * slashes dropped); empty for other schemes, wildcards and Boot's {@code {vendor}} placeholder.
     */
    static Optional<String> classpathRoot(String location) {
        String path = location.startsWith(CLASSPATH) ? location.substring(CLASSPATH.length()) : location;
        if (path.contains(":") || path.contains("*") || path.contains("?") || path.contains("{")) {
            return Optional.empty();
        }
        int start = 0;
        int end = path.length();
        while (start < end && path.charAt(start) == '/') {
            start++;
        }
        while (end > start && path.charAt(end - 1) == '/') {
            end--;
        }
        return start < end ? Optional.of(path.substring(start, end)) : Optional.empty();
    }

    /** {@code V<version>__<description><suffix>} as Flyway names a versioned SQL migration; anything else is empty. */
    Optional<SchemaVersion> versionOf(String fileName) {
        boolean sql = suffixes.stream().anyMatch(fileName::endsWith);
        int end = fileName.indexOf(separator, prefix.length());
        if (!sql || !fileName.startsWith(prefix) || end <= prefix.length()) {
            return Optional.empty();
        }
        return SchemaVersion.parse(fileName.substring(prefix.length(), end));
    }

    /**
     * Every version in the schema history when each row is a successful versioned SQL migration (or one of Flyway's
     * marker rows); else empty.
     */
    Optional<SortedSet<SchemaVersion>> appliedVersions(DataSource dataSource) {
        String qualified = (schema == null ? "" : quote(schema) + ".") + quote(table);
        SortedSet<SchemaVersion> versions = new TreeSet<>();
        int rows = 0;
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet history = statement.executeQuery("SELECT \"version\", \"type\", \"success\" FROM " + qualified)) {
            while (history.next()) {
                String version = history.getString(1);
                String type = history.getString(2);
                if (!history.getBoolean(3)) {
                    return Optional.empty();
                }
                if (MARKERS.contains(type)) {
                    continue;
                }
                Optional<SchemaVersion> parsed = SchemaVersion.parse(version);
                if (parsed.isEmpty() || !SQL_MIGRATION.equals(type)) {
                    return Optional.empty();
                }
                versions.add(parsed.get());
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
