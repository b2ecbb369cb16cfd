package dev.berth.state;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.bootstrap.DefaultBootstrapContext;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Flyway is rehearsed only when the start creates the state database, the rehearsal touches nothing of the agent's
 * and says nothing, and the real migration after it (or after a failed one) migrates and logs as without it.
 */
@ExtendWith(OutputCaptureExtension.class)
class FlywayWarmUpTest {

    private static final String[] ARGS = new String[0];
    static final CpuHeadroom SPARE = new CpuHeadroom(2, 2.0, 0.0);
    private static final CpuHeadroom BUSY = new CpuHeadroom(2, 0.5, 6.0);

    @Test
    void onlyAStartThatCreatesAnH2FileDatabaseRehearses(@TempDir Path dir) throws IOException {
        MockEnvironment environment = new MockEnvironment().withProperty("spring.datasource.url", fileUrl(dir));
        assertThat(FlywayWarmUp.newStateDatabase(environment)).as("no database file yet").isTrue();

        assertThat(FlywayWarmUp.newStateDatabase(copy(environment).withProperty("spring.flyway.enabled", "false")))
                .as("Flyway disabled").isFalse();
        assertThat(FlywayWarmUp.newStateDatabase(copy(environment).withProperty("spring.context.exit", "onRefresh")))
                .as("a start that ends at the first refresh (bin/berth train)").isFalse();
        assertThat(FlywayWarmUp.newStateDatabase(new MockEnvironment()
                .withProperty("spring.datasource.url", "jdbc:h2:mem:berth"))).as("not a file").isFalse();
        assertThat(FlywayWarmUp.newStateDatabase(new MockEnvironment())).as("no URL").isFalse();

        Files.createFile(dir.resolve("berth.mv.db"));
        assertThat(FlywayWarmUp.newStateDatabase(environment)).as("a restart").isFalse();
    }

    @Test
    void theRehearsalReachesTheContextOnlyWhenTheDatabaseIsNew(@TempDir Path dir) throws IOException {
        MockEnvironment environment = new MockEnvironment().withProperty("spring.datasource.url", fileUrl(dir));

        assertThat(start(environment, BUSY).getBeanFactory().containsSingleton(FlywayRehearsal.BEAN_NAME))
                .as("no processor to spare").isFalse();
        GenericApplicationContext newDatabase = start(environment, SPARE);
        assertThat(newDatabase.getBeanFactory().containsSingleton(FlywayRehearsal.BEAN_NAME)).isTrue();
        FlywayRehearsal rehearsal = newDatabase.getBeanFactory().getBean(FlywayRehearsal.BEAN_NAME, FlywayRehearsal.class);
        assertThat(rehearsal.awaitEnd(FlywayRehearsal.WAIT_LIMIT)).isTrue();
        assertThat(rehearsal.failure()).isNull();
        assertThat(dir).as("the agent's database is not the rehearsal's").isEmptyDirectory();

        Files.createFile(dir.resolve("berth.mv.db"));
        assertThat(start(environment, SPARE).getBeanFactory().containsSingleton(FlywayRehearsal.BEAN_NAME)).isFalse();
    }

    @Test
    void aRehearsalSaysNothingAndTheMigrationAfterItLogsAndMigratesAsAlways(@TempDir Path dir, CapturedOutput output)
            throws Exception {
        FlywayRehearsal.rehearse(getClass().getClassLoader());
        assertThat(output.getAll()).as("the rehearsal").doesNotContainIgnoringCase("flyway").doesNotContain("Migrating");

        DefaultListableBeanFactory agentBeans = new DefaultListableBeanFactory();
        migrate(dir, agentBeans);

        assertThat(output.getAll()).contains("Successfully applied " + bundled().size() + " migrations");
    }

    @Test
    void aFailedRehearsalChangesNothing(@TempDir Path dir, CapturedOutput output) {
        ClassLoader broken = new ClassLoader(getClass().getClassLoader()) {
            @Override
            public URL getResource(String name) {
                throw new IllegalStateException("unreadable class path");
            }

            @Override
            public Enumeration<URL> getResources(String name) throws IOException {
                throw new IOException("unreadable class path");
            }
        };
        FlywayRehearsal rehearsal = FlywayRehearsal.start(broken);
        assertThat(rehearsal.awaitEnd(FlywayRehearsal.WAIT_LIMIT)).isTrue();
        assertThat(rehearsal.failure()).isNotNull();
        assertThat(output.getAll()).doesNotContain("unreadable class path");

        DefaultListableBeanFactory agentBeans = new DefaultListableBeanFactory();
        agentBeans.registerSingleton(FlywayRehearsal.BEAN_NAME, rehearsal);
        migrate(dir, agentBeans);

        assertThat(output.getAll()).contains("Successfully applied " + bundled().size() + " migrations");
    }

    /** The agent's migration of a new file database in {@code dir}: history and tables as the bundled scripts say. */
    private void migrate(Path dir, DefaultListableBeanFactory agentBeans) {
        DataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(), fileUrl(dir), "sa", "");
        agentBeans.registerSingleton("dataSource", dataSource);
        MockEnvironment environment = new MockEnvironment();
        ClassLoader classLoader = getClass().getClassLoader();
        new StateSchema(agentBeans, environment, classLoader,
                new FlywaySchemaMigration(agentBeans, environment, classLoader)).afterPropertiesSet();
        JdbcClient jdbc = JdbcClient.create(dataSource);
        List<String> applied = jdbc.sql("SELECT \"version\" FROM \"flyway_schema_history\" WHERE \"type\" = 'SQL' "
                + "AND \"success\" ORDER BY \"installed_rank\"").query(String.class).list();
        assertThat(applied).containsExactlyElementsOf(bundled().stream().map(SchemaVersion::text).toList());
        jdbc.sql("SHUTDOWN").update();
    }

    /** The two events {@link FlywayWarmUp} listens to, in their order; the context it hands a rehearsal to. */
    private static GenericApplicationContext start(MockEnvironment environment, CpuHeadroom headroom) {
        FlywayWarmUp listener = new FlywayWarmUp(Optional::empty, first -> headroom);
        SpringApplication application = new SpringApplication(FlywayWarmUpTest.class);
        GenericApplicationContext context = new GenericApplicationContext();
        listener.onApplicationEvent(new ApplicationEnvironmentPreparedEvent(new DefaultBootstrapContext(), application,
                ARGS, environment));
        listener.onApplicationEvent(new ApplicationPreparedEvent(application, ARGS, context));
        return context;
    }

    private static MockEnvironment copy(MockEnvironment environment) {
        return new MockEnvironment().withProperty("spring.datasource.url",
                environment.getRequiredProperty("spring.datasource.url"));
    }

    private static String fileUrl(Path dir) {
        return "jdbc:h2:file:" + dir.resolve("berth") + ";DB_CLOSE_ON_EXIT=FALSE";
    }

    private java.util.SortedSet<SchemaVersion> bundled() {
        return SchemaLook.of(new MockEnvironment()).bundledVersions(getClass().getClassLoader()).orElseThrow();
    }
}
