package dev.berth.state;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcClientAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * One start of the agent's state wiring (Boot's JDBC auto-configuration and {@link StateSchema}) on the H2 database
 * at a URL. {@link StateSchemaClassLoadingTest} runs it in a class loader of its own to see which classes it loads.
 */
public final class IsolatedSchemaStart {

    private IsolatedSchemaStart() {
    }

    public static void run(String url) {
        new ApplicationContextRunner()
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
}
