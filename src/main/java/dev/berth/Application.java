package dev.berth;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

import dev.berth.config.StartupTimeline;

/**
 * Berth node agent. Spring Boot's Flyway auto-configuration is replaced by {@code state.StateSchema}, which builds the
 * same configuration only when the state database needs a migration (named, not referenced: no Flyway class loads).
 */
@SpringBootApplication(excludeName = {"org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
        "org.springframework.boot.flyway.autoconfigure.FlywayEndpointAutoConfiguration"})
@ConfigurationPropertiesScan
public class Application {

    public static void main(String[] args) {
        SpringApplication application = new SpringApplication(Application.class);
        if (Boolean.getBoolean(StartupTimeline.PROPERTY)) {
            // -Dberth.startup-timeline=true: record every start-up step; StartupTimeline logs the slowest when ready
            application.setApplicationStartup(new BufferingApplicationStartup(StartupTimeline.CAPACITY));
        }
        application.run(args);
    }
}
