package dev.berth.state;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SortedSet;
import java.util.UUID;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.Location;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.configuration.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.flyway.autoconfigure.FlywayProperties;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/** The look without Flyway reads the settings, scripts and history as Flyway does. */
class SchemaLookTest {

    private final String url = "jdbc:h2:mem:look-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    private final DataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(), url, "sa", "");
    private final JdbcClient jdbc = JdbcClient.create(dataSource);
    private final ClassLoader classLoader = getClass().getClassLoader();

    @AfterEach
    void dropDatabase() {
        jdbc.sql("SHUTDOWN").update();
    }

    @Test
    void theBundledVersionsAreTheOnesFlywayResolves() throws Exception {
        Flyway flyway = Flyway.configure().dataSource(dataSource).load();
        List<SchemaVersion> resolved = Arrays.stream(flyway.info().all()).map(MigrationInfo::getVersion)
                .map(v -> SchemaVersion.parse(v.getVersion()).orElseThrow()).toList();

        SortedSet<SchemaVersion> bundled = look().bundledVersions(classLoader).orElseThrow();

        assertThat(bundled).containsExactlyElementsOf(resolved);
        try (var scripts = Files.list(Path.of("src/main/resources/db/migration"))) {
            assertThat(bundled).hasSize((int) scripts.count());
        }
    }

    @Test
    void theDefaultsAreFlywaysAndBoots() {
        SchemaLook look = look();
        Configuration flyway = Flyway.configure();
        FlywayProperties boot = new FlywayProperties();

        assertThat(look.locations()).containsExactlyElementsOf(boot.getLocations())
                .containsExactly(Arrays.stream(flyway.getLocations()).map(Location::getDescriptor).toArray(String[]::new));
        assertThat(look.table()).isEqualTo(flyway.getTable()).isEqualTo(boot.getTable());
        assertThat(look.prefix()).isEqualTo(flyway.getSqlMigrationPrefix()).isEqualTo(boot.getSqlMigrationPrefix());
        assertThat(look.separator()).isEqualTo(flyway.getSqlMigrationSeparator()).isEqualTo(boot.getSqlMigrationSeparator());
        assertThat(look.suffixes()).containsExactly(flyway.getSqlMigrationSuffixes())
                .containsExactlyElementsOf(boot.getSqlMigrationSuffixes());
        assertThat(look.schema()).isNull();
        assertThat(look.understood()).isTrue();
    }

    @Test
    void springFlywayKeysAreReadAsBootBindsThem() {
        MockEnvironment env = new MockEnvironment()
                .withProperty("spring.flyway.locations", "classpath:db/migration,classpath:/other/")
                .withProperty("spring.flyway.table", "history")
                .withProperty("spring.flyway.schemas[0]", "S1")
                .withProperty("spring.flyway.schemas[1]", "S2")
                .withProperty("spring.flyway.sql-migration-prefix", "M")
                .withProperty("spring.flyway.sql-migration-separator", "--")
                .withProperty("spring.flyway.sql-migration-suffixes", ".sql,.ddl");
        FlywayProperties boot = Binder.get(env).bind("spring.flyway", Bindable.of(FlywayProperties.class)).get();

        SchemaLook look = SchemaLook.of(env);

        assertThat(look.locations()).isEqualTo(boot.getLocations());
        assertThat(look.table()).isEqualTo(boot.getTable());
        assertThat(look.schema()).isEqualTo(boot.getSchemas().getFirst());
        assertThat(look.prefix()).isEqualTo(boot.getSqlMigrationPrefix());
        assertThat(look.separator()).isEqualTo(boot.getSqlMigrationSeparator());
        assertThat(look.suffixes()).isEqualTo(boot.getSqlMigrationSuffixes());
        assertThat(SchemaLook.of(env.withProperty("spring.flyway.default-schema", "D")).schema()).isEqualTo("D");
    }

    @Test
    void anotherDataSourceOrCallbackLocationsAreLeftToFlyway() {
        assertThat(SchemaLook.of(new MockEnvironment().withProperty("spring.flyway.url", url)).understood()).isFalse();
        assertThat(SchemaLook.of(new MockEnvironment().withProperty("spring.flyway.user", "other")).understood()).isFalse();
        assertThat(SchemaLook.of(new MockEnvironment().withProperty("spring.flyway.callback-locations", "classpath:cb"))
                .understood()).isFalse();
    }

    @Test
    void onlyPlainClasspathLocationsAreListed() {
        assertThat(SchemaLook.classpathRoot("classpath:db/migration")).contains("db/migration");
        assertThat(SchemaLook.classpathRoot("db/migration/")).contains("db/migration");
        assertThat(SchemaLook.classpathRoot("classpath:/db/migration")).contains("db/migration");
        assertThat(SchemaLook.classpathRoot("filesystem:/srv/sql")).isEmpty();
        assertThat(SchemaLook.classpathRoot("classpath:db/*/migration")).isEmpty();
        assertThat(SchemaLook.classpathRoot("classpath:db/migration/{vendor}")).isEmpty();
        assertThat(look("filesystem:/srv/sql").currentVersion(dataSource, classLoader)).isEmpty();
    }

    @Test
    void onlyVersionedSqlScriptsAreUnderstood() {
        SchemaLook look = look();
        assertThat(look.versionOf("V45__job_periodic_launch.sql")).contains(SchemaVersion.parse("45").orElseThrow());
        assertThat(look.versionOf("V2_1__x.sql")).contains(SchemaVersion.parse("2.1").orElseThrow());
        assertThat(look.versionOf("R__view.sql")).isEmpty();
        assertThat(look.versionOf("afterMigrate.sql")).isEmpty();
        assertThat(look.versionOf("V3__x.txt")).isEmpty();
        assertThat(look.versionOf("V__x.sql")).isEmpty();
        assertThat(look.versionOf("V1a__x.sql")).isEmpty();
    }

    @Test
    void versionsCompareAsFlywayCompares() {
        List<String> texts = List.of("1", "1.0", "01", "1_1", "1.1.0", "2", "10", "1.10", "1.9", "20260101", "0.0.1");
        for (String a : texts) {
            for (String b : texts) {
                SchemaVersion ours = SchemaVersion.parse(a).orElseThrow();
                SchemaVersion theirs = SchemaVersion.parse(b).orElseThrow();
                int flyway = MigrationVersion.fromVersion(a).compareTo(MigrationVersion.fromVersion(b));
                assertThat(Integer.signum(ours.compareTo(theirs))).as(a + " vs " + b).isEqualTo(Integer.signum(flyway));
                assertThat(ours.equals(theirs)).isEqualTo(flyway == 0);
            }
        }
        assertThat(SchemaVersion.parse("1.x")).isEmpty();
        assertThat(SchemaVersion.parse("")).isEmpty();
        assertThat(SchemaVersion.parse(null)).isEmpty();
    }

    @Test
    void aHistoryThisLookDoesNotUnderstandIsLeftToFlyway() {
        jdbc.sql("CREATE TABLE \"flyway_schema_history\" (\"something\" INT)").update();

        assertThat(look().appliedVersions(dataSource)).isEmpty();
        assertThat(look().currentVersion(dataSource, classLoader)).isEmpty();
    }

    @Test
    void aMigratedDatabaseIsCurrentAtTheNewestBundledVersion() {
        Flyway.configure().dataSource(dataSource).load().migrate();

        SortedSet<SchemaVersion> bundled = look().bundledVersions(classLoader).orElseThrow();
        assertThat(look().currentVersion(dataSource, classLoader)).contains(bundled.last());
        // a row Flyway wrote for something other than a versioned SQL script: Flyway decides
        jdbc.sql("UPDATE \"flyway_schema_history\" SET \"type\" = 'JDBC' WHERE \"version\" = '1'").update();
        assertThat(look().currentVersion(dataSource, classLoader)).isEmpty();
    }

    private static SchemaLook look() {
        return SchemaLook.of(new MockEnvironment());
    }

    private static SchemaLook look(String location) {
        return SchemaLook.of(new MockEnvironment().withProperty("spring.flyway.locations", location));
    }
}
