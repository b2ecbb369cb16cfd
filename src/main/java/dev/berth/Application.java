package dev.berth;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

import dev.berth.config.StartupTimeline;

/**
 * Berth node agent.
 *
 * <p>Left out: Boot's Jackson 2 mapper for actuator endpoints (every endpoint the agent exposes is written with Jackson
 * 3, and that mapper loaded ~450 Jackson 2 classes at every start for nothing), declarative transactions (the
 * stores write theirs out, {@code state.StateTransactions}: no class proxies to generate and no transaction-attribute
 * lookup on every bean at start; ArchitectureTest keeps {@code @Transactional} out), and Boot's Flyway
 * auto-configuration ({@code state.StateSchema} builds the same configuration only when the state database needs a
 * migration; named, not referenced, so no Flyway class loads).
 */
@SpringBootApplication(excludeName = {
        "org.springframework.boot.actuate.autoconfigure.endpoint.jackson.Jackson2EndpointAutoConfiguration",
        "org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration",
        "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
        "org.springframework.boot.flyway.autoconfigure.FlywayEndpointAutoConfiguration"})
@ConfigurationPropertiesScan
public class Application {

    /** Spring Boot's switch for its background pre-initialisation of converters, validation and the like. */
    static final String NO_BACKGROUND_PREINITIALIZER = "spring.backgroundpreinitializer.ignore";

    public static void main(String[] args) {
        if (System.getProperty(NO_BACKGROUND_PREINITIALIZER) == null) {
            // It warms classes up on a second thread: the AOT cache already holds them, and its message-converter
            // step builds Spring's default client converters (a Jackson 2 YAML mapper, ~450 classes) nothing uses
            System.setProperty(NO_BACKGROUND_PREINITIALIZER, "true");
        }
        SpringApplication application = new SpringApplication(Application.class);
        if (Boolean.getBoolean(StartupTimeline.PROPERTY)) {
            // -Dberth.startup-timeline=true: record every start-up step; StartupTimeline logs the slowest when ready
            application.setApplicationStartup(new BufferingApplicationStartup(StartupTimeline.CAPACITY));
        }
        if (Boolean.getBoolean(AotTraining.PROPERTY)) {
            application.addListeners(new AotTraining()); // bin/berth train: run until healthy, then exit
        }
        application.run(args);
    }
}
