package dev.berth.api;

import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/** Tomcat's own error responses as problem details ({@link ProblemErrorReportValve}). */
@Configuration(proxyBeanMethods = false)
class ContainerErrorConfiguration {

    /** Last, so its context customizer runs after Boot's, which adds the plain HTML valve this one replaces. */
    @Bean
    @Order(Ordered.LOWEST_PRECEDENCE)
    WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> problemErrorReportValve() {
        return factory -> factory.addContextCustomizers(ProblemErrorReportValve.installer());
    }
}
