package dev.berth.api;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.springdoc.core.providers.SpringWebProvider;
import org.springdoc.webmvc.core.providers.SpringWebMvcProvider;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.DeferredImportSelector;
import org.springframework.context.annotation.Import;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.web.accept.ApiVersionStrategy;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * What the child context of {@link ApiDocsFilter} holds: Spring MVC (configured by the agent's own
 * {@code WebMvcConfigurer}s, which it sees as a child: the same converters, path matching and content negotiation),
 * springdoc's auto-configurations in Spring Boot's order, and the document's header ({@link OpenApiConfiguration}).
 * Only this context loads springdoc's classes. Not a {@code @Configuration}, so the agent's component scan passes it
 * by; {@link ApiDocsFilter} registers it in the child.
 */
@EnableWebMvc
@EnableConfigurationProperties
@Import({OpenApiConfiguration.class, ApiDocsChildConfiguration.Springdoc.class})
class ApiDocsChildConfiguration {

    /** Replaces springdoc's own (it backs off): the agent's handler methods are in the parent context's mappings. */
    @Bean
    SpringWebProvider springWebProvider(Optional<ApiVersionStrategy> apiVersionStrategy) {
        return new LineageWebMvcProvider(apiVersionStrategy);
    }

    /** springdoc's auto-configurations, which {@link ApiDocsImportFilter} keeps out of the agent's context. */
    static final class Springdoc implements DeferredImportSelector {

        @Override
        public String[] selectImports(AnnotationMetadata metadata) {
            // alphabetical, as Spring Boot sorts auto-configurations that declare no order (springdoc's declare none)
            return ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()).getCandidates().stream()
                    .filter(ApiDocsImportFilter::isSpringdoc)
                    .sorted()
                    .toArray(String[]::new);
        }
    }

    /**
     * springdoc's provider reads the {@link RequestMappingHandlerMapping}s of its own context only; this one reads
     * the ancestors' first (the agent's endpoints, in the order springdoc saw them in one context), then its own.
     */
    static final class LineageWebMvcProvider extends SpringWebMvcProvider {

        LineageWebMvcProvider(Optional<ApiVersionStrategy> apiVersionStrategy) {
            super(apiVersionStrategy);
        }

        @Override
        @SuppressWarnings({"rawtypes", "unchecked"})
        public Map getHandlerMethods() {
            if (handlerMethods == null) {
                Deque<ApplicationContext> lineage = new ArrayDeque<>();
                for (ApplicationContext context = applicationContext; context != null; context = context.getParent()) {
                    lineage.push(context);
                }
                Map<RequestMappingInfo, HandlerMethod> methods = new LinkedHashMap<>();
                for (ApplicationContext context : lineage) {
                    context.getBeansOfType(RequestMappingHandlerMapping.class).values()
                            .forEach(mapping -> mapping.getHandlerMethods().forEach(methods::putIfAbsent));
                }
                handlerMethods = methods;
            }
            return handlerMethods;
        }
    }
}
