package dev.berth.state;

import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.List;
import java.util.SortedSet;
import java.util.UUID;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcClientAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Flyway is built and run on a new, an older or a failed database, and not at all on one that is current. */
class StateSchemaTest {

    private final String url = "jdbc:h2:mem:schema-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    private final DataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(), url, "sa", "");
    private final JdbcClient jdbc = JdbcClient.create(dataSource);
    private final MockEnvironment environment = new MockEnvironment();
    private final DefaultListableBeanFactory agentBeans = new DefaultListableBeanFactory();
    private int flywayBuilt;

    @AfterEach
    void dropDatabase() {
        jdbc.sql("SHUTDOWN").update();
    }

    @Test
    void aNewDatabaseIsMigratedAndARestartOnItBuildsNoFlyway() {
        start();
        assertThat(flywayBuilt).isEqualTo(1);
        assertThat(historyVersions()).containsExactlyElementsOf(bundledNames());
        List<Timestamp> installed = installedOn();

        start();

        assertThat(flywayBuilt).as("restart on a current schema").isEqualTo(1);
        assertThat(installedOn()).isEqualTo(installed);
        assertThat(schema().currentVersion()).contains(bundled().last());
    }

    @Test
    void aDatabaseWithoutTheNewestMigrationIsMigrated() {
        SchemaVersion newest = bundled().last();
        SchemaVersion previous = bundled().headSet(newest).last();
        Flyway.configure().dataSource(dataSource).target(previous.text()).load().migrate();
        assertThat(historyVersions()).last().isEqualTo(previous.text());

        start();

        assertThat(flywayBuilt).isEqualTo(1);
        assertThat(historyVersions()).containsExactlyElementsOf(bundledNames());
    }

    @Test
    void aFailedRowMakesFlywayRunAndFailTheStartWithItsReason() {
        start();
        jdbc.sql("UPDATE \"flyway_schema_history\" SET \"success\" = FALSE WHERE \"version\" = ?")
                .param(bundled().last().text()).update();

        assertThatThrownBy(this::start).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("The state database could not be migrated to this build's schema: ")
                .hasMessageContaining("failed migration to version " + bundled().last());
        assertThat(flywayBuilt).isEqualTo(2);
    }

    @Test
    void springFlywayKeysReachFlyway() {
        // a history table of another name: the look reads it, and Flyway (Boot's configuration) writes it
        environment.setProperty("spring.flyway.table", "schema_history");
        start();
        assertThat(jdbc.sql("SELECT COUNT(*) FROM \"schema_history\" WHERE \"type\" = 'SQL'").query(Integer.class).single())
                .isEqualTo(bundled().size());
        start();
        assertThat(flywayBuilt).isEqualTo(1);

        // another DataSource for Flyway (here the same database): the look leaves it to Flyway, which finds nothing to do
        environment.setProperty("spring.flyway.url", url);
        environment.setProperty("spring.flyway.user", "sa");
        start();
        assertThat(flywayBuilt).isEqualTo(2);
    }

    @Test
    void flywayBeansInTheContextAreLeftToFlyway() {
        start();
        agentBeans.registerSingleton("callback", new Callback() {
            @Override
            public boolean supports(Event event, Context context) {
                return false;
            }

            @Override
            public boolean canHandleInTransaction(Event event, Context context) {
                return true;
            }

            @Override
            public void handle(Event event, Context context) {
            }

            @Override
            public String getCallbackName() {
                return "test";
            }
        });

        start();

        assertThat(flywayBuilt).isEqualTo(2);
    }

    @Test
    void disabledFlywayMigratesNothing() {
        environment.setProperty("spring.flyway.enabled", "false");

        start();

        assertThat(flywayBuilt).isZero();
        assertThat(jdbc.sql("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'PUBLIC'")
                .query(Integer.class).single()).isZero();
    }

    /**
     * The agent's wiring: Boot's JDBC auto-configuration, a bean reading the schema in its constructor (created after
     * the migration: Boot's database-initialisation ordering knows {@link StateSchema}), a restart that no longer
     * validates applied scripts, and a start with a migration to apply that validates again.
     */
    @Test
    void jdbcBeansAreCreatedAfterTheMigrationAndARestartDoesNotValidate(@TempDir Path dir) {
        String fileUrl = "jdbc:h2:file:" + dir.resolve("berth") + ";DB_CLOSE_ON_EXIT=FALSE";
        ApplicationContextRunner agent = new ApplicationContextRunner()
                .withBean(SchemaReader.class)
                .withUserConfiguration(StateSchema.class)
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        JdbcTemplateAutoConfiguration.class, JdbcClientAutoConfiguration.class))
                .withPropertyValues("spring.datasource.url=" + fileUrl, "spring.datasource.username=sa");
        agent.run(context -> assertThat(context).hasNotFailed().hasSingleBean(SchemaReader.class)
                .doesNotHaveBean(Flyway.class));
        JdbcClient file = JdbcClient.create(new SimpleDriverDataSource(new org.h2.Driver(), fileUrl, "sa", ""));
        assertThat(file.sql("SELECT COUNT(*) FROM \"flyway_schema_history\" WHERE \"type\" = 'SQL'").query(Integer.class)
                .single()).isEqualTo(bundled().size());
        // a checksum Flyway's validation would reject: the restart does not build Flyway, so it starts
        file.sql("UPDATE \"flyway_schema_history\" SET \"checksum\" = 1 WHERE \"version\" = '1'").update();

        agent.run(context -> assertThat(context).hasNotFailed());

        // with a migration to apply, Flyway runs and validates again: the start fails with its reason
        file.sql("DELETE FROM \"flyway_schema_history\" WHERE \"version\" = ?").param(bundled().last().text()).update();
        agent.run(context -> assertThat(context).getFailure()
                .hasStackTraceContaining("The state database could not be migrated to this build's schema")
                .rootCause().hasMessageContaining("checksum mismatch"));
        file.sql("SHUTDOWN").update();
    }

    /** Reads the schema as soon as it is created, as a store's first query would. */
    static final class SchemaReader {
        SchemaReader(JdbcClient jdbc) {
            jdbc.sql("SELECT COUNT(*) FROM node_identity").query(Integer.class).single();
        }
    }

    private void start() {
        schema().afterPropertiesSet();
    }

    private StateSchema schema() {
        if (!agentBeans.containsSingleton("dataSource")) {
            agentBeans.registerSingleton("dataSource", dataSource);
        }
        FlywaySchemaMigration flyway = new FlywaySchemaMigration(agentBeans, environment, getClass().getClassLoader());
        return new StateSchema(agentBeans, environment, getClass().getClassLoader(), () -> {
            flywayBuilt++;
            flyway.migrate();
        });
    }

    private SortedSet<SchemaVersion> bundled() {
        return SchemaLook.of(new MockEnvironment()).bundledVersions(getClass().getClassLoader()).orElseThrow();
    }

    private List<String> bundledNames() {
        return bundled().stream().map(SchemaVersion::text).toList();
    }

    private List<String> historyVersions() {
        return jdbc.sql("SELECT \"version\" FROM \"flyway_schema_history\" WHERE \"type\" = 'SQL' ORDER BY \"installed_rank\"")
                .query(String.class).list();
    }

    private List<Timestamp> installedOn() {
        return jdbc.sql("SELECT \"installed_on\" FROM \"flyway_schema_history\" ORDER BY \"installed_rank\"")
                .query(Timestamp.class).list();
    }
}
