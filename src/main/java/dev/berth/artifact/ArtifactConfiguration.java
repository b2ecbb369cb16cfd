package dev.berth.artifact;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import dev.berth.alloc.runner.AllocRunnerContext;

/** Wires the artifact hook among the task hooks. */
@Configuration(proxyBeanMethods = false)
class ArtifactConfiguration {

    /**
     * After {@code dispatch_payload} (15) and before {@code devices} (20), Nomad's order: the task directory exists and
     * the artifacts are in place before anything reads them.
     */
    @Bean
    @Order(17)
    ArtifactHook artifactHook(ArtifactProperties props, ObjectProvider<AllocRunnerContext> runnerContext, Clock clock) {
        return new ArtifactHook(props, context -> runnerContext.getObject().envBuilder().apply(context), clock);
    }
}
