package dev.berth.variables;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.berth.config.BerthProperties;

/** The node key lives beside the state database, not in it: {@code <data-dir>/keys/variables.key}. */
@Configuration(proxyBeanMethods = false)
class VariablesConfiguration {

    @Bean
    VariableCipher variableCipher(BerthProperties properties) {
        NodeKeyFile file = new NodeKeyFile(properties.dataDir().resolve("keys").resolve("variables.key"));
        return new VariableCipher(file::loadOrCreate);
    }
}
