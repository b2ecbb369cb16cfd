package dev.berth.template;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import dev.berth.alloc.runner.AllocRunnerContext;
import dev.berth.alloc.runner.AllocRunners;
import dev.berth.config.Sleeper;
import dev.berth.events.ChangeFeed;
import dev.berth.service.ServiceRegistry;
import dev.berth.variables.WorkloadVariables;

/** Wires the template hook among the task hooks. */
@Configuration(proxyBeanMethods = false)
class TemplateConfiguration {

    /**
     * After {@code artifacts} (17), {@code devices} (20) and {@code volumes} (25), before the logs (30): Nomad's order,
     * so a template may read a fetched artifact and its files exist before the task starts.
     */
    @Bean
    @Order(26)
    TemplateHook templateHook(WorkloadVariables variables, ServiceRegistry services, ChangeFeed feed,
                              ObjectProvider<AllocRunnerContext> runnerContext, ObjectProvider<AllocRunners> runners, Clock clock,
                              ObjectProvider<Sleeper> sleeper) {
        return new TemplateHook(variables, services, feed, context -> runnerContext.getObject().envBuilder().apply(context),
                key -> {
                    int slash = key.indexOf('/');
                    return runners.getObject().find(key.substring(0, slash)).map(r -> r.task(key.substring(slash + 1)));
                }, clock, sleeper.getIfAvailable(Sleeper::system));
    }

}
