package dev.berth.api;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.boot.jackson.JacksonMixinModuleEntries;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Spring Boot finds {@code @JacksonMixin} classes by reading every class file of the application's packages at start
 * (the component index cannot answer for that annotation): ~90 ms of a 2 s start, and the agent declares none. The
 * auto-configured entries are replaced by an empty set; {@code ArchitectureTest.noJacksonMixins} fails the build the day a
 * {@code @JacksonMixin} class is added, so this cannot silently drop one.
 */
@Configuration(proxyBeanMethods = false)
class NoJsonMixinScan {

    static final String ENTRIES_BEAN = "jacksonMixinModuleEntries";

    @Bean
    static BeanFactoryPostProcessor noJsonMixinScanning() {
        return factory -> {
            if (factory.containsBeanDefinition(ENTRIES_BEAN)
                    && factory.getBeanDefinition(ENTRIES_BEAN) instanceof AbstractBeanDefinition definition) {
                definition.setInstanceSupplier(() -> JacksonMixinModuleEntries.create(entries -> { }));
                definition.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
            }
        };
    }
}
