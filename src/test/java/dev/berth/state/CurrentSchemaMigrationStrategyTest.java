package dev.berth.state;

import java.sql.Timestamp;
import java.util.Arrays;
import java.util.List;
import java.util.SortedSet;
import java.util.UUID;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.configuration.Configuration;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Flyway runs on a new, an older or a failed database, and not at all on one that holds every bundled migration. */
class CurrentSchemaMigrationStrategyTest {

    private final String url = "jdbc:h2:mem:schema-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    private final DataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(), url, "sa", "");
    private final JdbcClient jdbc = JdbcClient.create(dataSource);
    private final CurrentSchemaMigrationStrategy strategy = new CurrentSchemaMigrationStrategy();

    @AfterEach
    void dropDatabase() {
        jdbc.sql("SHUTDOWN").update();
    }

    @Test
    void theBundledVersionsAreTheOnesFlywayResolves() throws java.io.IOException {
        CountingFlyway flyway = flyway();
        List<MigrationVersion> resolved = Arrays.stream(flyway.info().all()).map(MigrationInfo::getVersion).toList();

        SortedSet<MigrationVersion> bundled =
                CurrentSchemaMigrationStrategy.bundledVersions(flyway.getConfiguration()).orElseThrow();

        assertThat(bundled).containsExactlyElementsOf(resolved);
        try (var scripts = java.nio.file.Files.list(java.nio.file.Path.of("src/main/resources/db/migration"))) {
            assertThat(bundled).hasSize((int) scripts.count());
        }
    }

    @Test
    void aNewDatabaseIsMigratedAndARestartOnItRunsNoFlyway() {
        CountingFlyway first = flyway();
        strategy.migrate(first);
        assertThat(first.migrations).isEqualTo(1);
        assertThat(historyVersions()).containsExactlyElementsOf(bundledNames());
        List<Timestamp> installed = installedOn();

        CountingFlyway restart = flyway();
        strategy.migrate(restart);

        assertThat(restart.migrations).isZero();
        assertThat(installedOn()).isEqualTo(installed);
        assertThat(CurrentSchemaMigrationStrategy.currentVersion(restart.getConfiguration())).contains(bundled().last());
    }

    @Test
    void aDatabaseWithoutTheNewestMigrationIsMigrated() {
        MigrationVersion newest = bundled().last();
        MigrationVersion previous = bundled().headSet(newest).last();
        Flyway.configure().dataSource(dataSource).target(previous).load().migrate();
        assertThat(historyVersions()).last().isEqualTo(previous.getVersion());

        CountingFlyway newerBuild = flyway();
        strategy.migrate(newerBuild);

        assertThat(newerBuild.migrations).isEqualTo(1);
        assertThat(historyVersions()).containsExactlyElementsOf(bundledNames());
    }

    @Test
    void aFailedRowMakesFlywayRunAndFailAsItDoes() {
        strategy.migrate(flyway());
        jdbc.sql("UPDATE \"flyway_schema_history\" SET \"success\" = FALSE WHERE \"version\" = ?")
                .param(bundled().last().getVersion()).update();

        CountingFlyway restart = flyway();
        assertThatThrownBy(() -> strategy.migrate(restart)).isInstanceOf(FlywayException.class)
                .hasMessageContaining("failed migration to version " + bundled().last());
        assertThat(restart.migrations).isEqualTo(1);
    }

    @Test
    void anUnreadableHistoryMakesFlywayRun() {
        jdbc.sql("CREATE TABLE \"flyway_schema_history\" (\"something\" INT)").update();

        assertThat(CurrentSchemaMigrationStrategy.currentVersion(flyway().getConfiguration())).isEmpty();
    }

    @Test
    void onlyVersionedSqlScriptsAreUnderstood() {
        Configuration config = Flyway.configure();
        assertThat(CurrentSchemaMigrationStrategy.versionOf("V45__job_periodic_launch.sql", config))
                .contains(MigrationVersion.fromVersion("45"));
        assertThat(CurrentSchemaMigrationStrategy.versionOf("V2_1__x.sql", config)).contains(MigrationVersion.fromVersion("2.1"));
        assertThat(CurrentSchemaMigrationStrategy.versionOf("R__view.sql", config)).isEmpty();
        assertThat(CurrentSchemaMigrationStrategy.versionOf("afterMigrate.sql", config)).isEmpty();
        assertThat(CurrentSchemaMigrationStrategy.versionOf("V3__x.txt", config)).isEmpty();
        assertThat(CurrentSchemaMigrationStrategy.versionOf("V__x.sql", config)).isEmpty();
    }

    @Test
    void springBootUsesTheStrategyAndARestartNoLongerValidatesAppliedScripts() {
        ApplicationContextRunner agent = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, FlywayAutoConfiguration.class))
                .withBean(CurrentSchemaMigrationStrategy.class)
                .withPropertyValues("spring.datasource.url=" + url, "spring.datasource.username=sa");
        agent.run(context -> assertThat(context).hasNotFailed());
        assertThat(historyVersions()).containsExactlyElementsOf(bundledNames());
        // a checksum Flyway's validation would reject: the restart does not validate, so it starts
        jdbc.sql("UPDATE \"flyway_schema_history\" SET \"checksum\" = 1 WHERE \"version\" = '1'").update();

        agent.run(context -> assertThat(context).hasNotFailed());

        // with a migration to apply, Flyway runs and validates again
        jdbc.sql("DELETE FROM \"flyway_schema_history\" WHERE \"version\" = ?").param(bundled().last().getVersion()).update();
        agent.run(context -> assertThat(context).getFailure().rootCause().hasMessageContaining("checksum mismatch"));
    }

    private CountingFlyway flyway() {
        return new CountingFlyway(Flyway.configure().dataSource(dataSource));
    }

    private SortedSet<MigrationVersion> bundled() {
        return CurrentSchemaMigrationStrategy.bundledVersions(Flyway.configure()).orElseThrow();
    }

    private List<String> bundledNames() {
        return bundled().stream().map(MigrationVersion::getVersion).toList();
    }

    private List<String> historyVersions() {
        return jdbc.sql("SELECT \"version\" FROM \"flyway_schema_history\" WHERE \"type\" = 'SQL' ORDER BY \"installed_rank\"")
                .query(String.class).list();
    }

    private List<Timestamp> installedOn() {
        return jdbc.sql("SELECT \"installed_on\" FROM \"flyway_schema_history\" ORDER BY \"installed_rank\"")
                .query(Timestamp.class).list();
    }

    /** Flyway itself, counting the calls to migrate. */
    static final class CountingFlyway extends Flyway {

        int migrations;

        CountingFlyway(FluentConfiguration config) {
            super(config);
        }

        @Override
        public MigrateResult migrate() {
            migrations++;
            return super.migrate();
        }
    }
}
