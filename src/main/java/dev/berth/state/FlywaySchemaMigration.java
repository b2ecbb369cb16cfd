package dev.berth.state;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationInitializer;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Spring Boot's own Flyway configuration, built only when {@link StateSchema} found something to migrate: a short-lived
 * context holding {@link FlywayAutoConfiguration} over the agent's environment, whose bean factory sees the agent's
 * beans (the DataSource, and any Flyway callback, Java migration or customizer). Its refresh creates Boot's
 * {@code Flyway} from the {@code spring.flyway.*} keys and its {@code flywayInitializer} migrates (a failure fails the
 * refresh); closing it drops both. No event reaches the agent's context: the agent's bean factory is only the parent
 * bean factory, not a parent context.
 */
final class FlywaySchemaMigration implements StateSchema.Migration {

    private final ConfigurableListableBeanFactory agentBeans;
    private final ConfigurableEnvironment environment;
    private final ClassLoader classLoader;

    FlywaySchemaMigration(ConfigurableListableBeanFactory agentBeans, ConfigurableEnvironment environment,
            ClassLoader classLoader) {
        this.agentBeans = agentBeans;
        this.environment = environment;
        this.classLoader = classLoader;
    }

    @Override
    public void migrate() {
        try (AnnotationConfigApplicationContext flyway =
                new AnnotationConfigApplicationContext(new DefaultListableBeanFactory(agentBeans))) {
            flyway.setEnvironment(environment);
            flyway.setClassLoader(classLoader);
            flyway.register(FlywayAutoConfiguration.class);
            flyway.refresh();
            if (flyway.getBeanNamesForType(FlywayMigrationInitializer.class).length == 0) {
                throw new IllegalStateException("Spring Boot's Flyway configuration did not apply: no migration ran");
            }
        }
    }
}
