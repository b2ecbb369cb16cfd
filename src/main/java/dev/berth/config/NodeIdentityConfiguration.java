package dev.berth.config;

import java.util.UUID;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class NodeIdentityConfiguration {

    @Bean
    NodeIdentity nodeIdentity(NodeIdentityStore store) {
        return new NodeIdentity(store.loadOrCreateNodeId(() -> UUID.randomUUID().toString()));
    }
}
