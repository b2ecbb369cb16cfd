package dev.berth.state;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDatabaseInitializerDetector;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.stereotype.Component;
import org.springframework.util.ClassUtils;

/**
 * Brings the state database to this build's schema before anything reads it, building Flyway only when there is
 * something for it to do. Spring Boot's Flyway auto-configuration is excluded from the agent ({@code Application}):
 * building its {@code Flyway} bean alone loads several hundred classes, which the AOT cache would then load at every
 * start. Instead this bean first takes a cheap look ({@link SchemaLook}: the bundled script names against one query of
 * the schema history, plain JDBC); on a restart whose database holds exactly this build's migrations, no Flyway class is
 * initialised. Otherwise (a new database, a missing migration, a failed or unexpected history row, an unreadable
 * history, or a configuration the look does not understand: another DataSource for Flyway, callback locations, Flyway
 * callbacks, Java migrations or customizers among the beans) Spring Boot's own Flyway configuration is built
 * ({@link FlywaySchemaMigration}, every {@code spring.flyway.*} key honoured) and migrates, validating as always.
 *
 * <p>Spring Boot's database-initialisation ordering knows this bean ({@link Detector}, registered in
 * {@code META-INF/spring.factories}): the {@code JdbcClient}, {@code JdbcTemplate} and their kind are created after it,
 * so no store sees an unmigrated schema. With {@code spring.flyway.enabled=false} nothing is migrated, as with Boot.
 */
@Component
class StateSchema implements InitializingBean {

    private static final Log LOG = LogFactory.getLog(StateSchema.class);
    /** Packages whose types among the beans would change what Flyway does (callbacks, Java migrations, ...). */
    private static final Set<String> FLYWAY_PACKAGES = Set.of("org.flywaydb.", "org.springframework.boot.flyway.");

    /** Runs the migration: Spring Boot's Flyway configuration, built on demand. */
    @FunctionalInterface
    interface Migration {
        void migrate();
    }

    private final ConfigurableListableBeanFactory beans;
    private final ConfigurableEnvironment environment;
    private final ClassLoader classLoader;
    private final Migration migration;

    @Autowired
    StateSchema(ConfigurableListableBeanFactory beans, ConfigurableEnvironment environment, ResourceLoader resources) {
        this(beans, environment, resources.getClassLoader(),
                new FlywaySchemaMigration(beans, environment, resources.getClassLoader()));
    }

    StateSchema(ConfigurableListableBeanFactory beans, ConfigurableEnvironment environment, ClassLoader classLoader,
            Migration migration) {
        this.beans = beans;
        this.environment = environment;
        this.classLoader = classLoader;
        this.migration = migration;
    }

    @Override
    public void afterPropertiesSet() {
        if (!Binder.get(environment).bind("spring.flyway.enabled", Boolean.class).orElse(true)) {
            LOG.info("spring.flyway.enabled=false: the state database schema is not migrated");
            return;
        }
        long start = System.nanoTime();
        Optional<SchemaVersion> current = currentVersion();
        long decided = (System.nanoTime() - start) / 1_000_000;
        if (current.isPresent()) {
            LOG.info("State database schema is at version " + current.get() + ", the newest migration of this build: "
                    + "Flyway not run (decided in " + decided + " ms)");
            return;
        }
        LOG.info("State database schema needs Flyway (decided in " + decided + " ms)");
        try {
            migration.migrate();
        } catch (RuntimeException e) {
            throw new IllegalStateException("The state database could not be migrated to this build's schema: "
                    + NestedExceptionUtils.getMostSpecificCause(e).getMessage(), e);
        }
    }

    /** The current version, or empty when Flyway must run. */
    Optional<SchemaVersion> currentVersion() {
        long start = System.nanoTime();
        String[] dataSources = beans.getBeanNamesForType(DataSource.class);
        if (dataSources.length != 1 || flywayBeans()) {
            return Optional.empty(); // Flyway's own choice of DataSource, or beans that change what it does
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug("Beans checked for Flyway types in " + (System.nanoTime() - start) / 1_000 + " µs");
        }
        return SchemaLook.of(environment).currentVersion(beans.getBean(dataSources[0], DataSource.class), classLoader);
    }

    /**
     * Whether a bean is of a Flyway type (a callback, a Java migration, a configuration customizer, a migration
     * strategy, Flyway itself): judged by the names of its already-loaded class and supertypes, loading no Flyway class. Manually registered
     * singletons count too.
     */
    private boolean flywayBeans() {
        return Stream.concat(Arrays.stream(beans.getBeanDefinitionNames()), Arrays.stream(beans.getSingletonNames()))
                .map(name -> beans.getType(name, false)).anyMatch(type -> type != null && isFlywayType(type));
    }

    static boolean isFlywayType(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (inFlywayPackage(c)) {
                return true;
            }
        }
        return ClassUtils.getAllInterfacesForClassAsSet(type).stream().anyMatch(StateSchema::inFlywayPackage);
    }

    private static boolean inFlywayPackage(Class<?> type) {
        return FLYWAY_PACKAGES.stream().anyMatch(type.getName()::startsWith);
    }

    /** Tells Spring Boot that this bean initialises the database: beans that use JDBC are created after it. */
    public static final class Detector extends AbstractBeansOfTypeDatabaseInitializerDetector {

        @Override
        protected Set<Class<?>> getDatabaseInitializerBeanTypes() {
            return Set.of(StateSchema.class);
        }
    }
}
