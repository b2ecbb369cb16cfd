package dev.berth.config;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Builds the {@link AclPolicy}. The bean is a non-lazy singleton, so an insecure or unusable ACL configuration
 * stops the context during refresh, before the web server accepts a connection.
 */
@Configuration(proxyBeanMethods = false)
class AclConfiguration {

    @Bean
    AclPolicy aclPolicy(BerthProperties properties, Environment environment) {
        return AclPolicy.of(properties.acl(), environment.getProperty("server.address"));
    }
}
