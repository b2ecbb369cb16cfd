package dev.berth.state;

import java.util.Map;

import org.springframework.boot.bootstrap.DefaultBootstrapContext;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcClientAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * One start of the agent's state wiring (Boot's JDBC auto-configuration and {@link StateSchema}, after
 * {@link FlywayWarmUp} saw the environment) on the H2 database at a URL. {@link StateSchemaClassLoadingTest} runs it in
 * a class loader of its own to see which classes it loads.
 */
public final class IsolatedSchemaStart {

    private static final String[] ARGS = new String[0];

    private IsolatedSchemaStart() {
    }

    public static void run(String url) {
        Object rehearsal = warmUp(url); // not typed: naming the class here would load it on a restart too
        new ApplicationContextRunner()
                .withInitializer(context -> {
                    if (rehearsal != null) {
                        context.getBeanFactory().registerSingleton(FlywayRehearsal.BEAN_NAME, rehearsal);
                    }
                })
                .withUserConfiguration(StateSchema.class)
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        JdbcTemplateAutoConfiguration.class, JdbcClientAutoConfiguration.class))
                .withPropertyValues("spring.datasource.url=" + url, "spring.datasource.username=sa")
                .run(context -> {
                    if (context.getStartupFailure() != null) {
                        throw new IllegalStateException("the start failed", context.getStartupFailure());
                    }
                });
    }

    /** What the agent's {@link FlywayWarmUp} does with the environment of this start: the rehearsal it started, or null. */
    private static Object warmUp(String url) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("start", Map.of("spring.datasource.url", url)));
        SpringApplication application = new SpringApplication(IsolatedSchemaStart.class);
        GenericApplicationContext context = new GenericApplicationContext();
        // a processor to spare, so that a new database is rehearsed whatever else runs on the test machine
        FlywayWarmUp listener = new FlywayWarmUp(java.util.Optional::empty, first -> new CpuHeadroom(2, 2.0, 0.0));
        listener.onApplicationEvent(new ApplicationEnvironmentPreparedEvent(new DefaultBootstrapContext(), application,
                ARGS, environment));
        listener.onApplicationEvent(new ApplicationPreparedEvent(application, ARGS, context));
        return context.getBeanFactory().getSingleton(FlywayRehearsal.BEAN_NAME);
    }
}
