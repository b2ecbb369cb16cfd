package dev.berth.api;

import org.springframework.boot.http.converter.autoconfigure.ServerHttpMessageConvertersCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Keeps Jackson 2 out of the agent's start: Spring's default YAML converter becomes a {@link LazyYamlConverter}, and
 * Spring Boot's form-content filter a {@link LazyFormContentFilter}; both are created on the first request that needs
 * them.
 */
@Configuration(proxyBeanMethods = false)
class LazyYamlConfiguration {

    /** Not a converter bean: Spring Boot would add such a bean to the converters a second time. */
    @Bean
    ServerHttpMessageConvertersCustomizer lazyYamlConverterCustomizer() {
        LazyYamlConverter converter = LazyYamlConverter.jackson2();
        return builder -> builder.withYamlConverter(converter);
    }

    /** In place of Spring Boot's, which application.yml turns off ({@code spring.mvc.formcontent.filter.enabled}). */
    @Bean
    LazyFormContentFilter formContentFilter() {
        return new LazyFormContentFilter();
    }
}
