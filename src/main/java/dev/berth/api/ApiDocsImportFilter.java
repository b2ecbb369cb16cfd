package dev.berth.api;

import org.springframework.boot.autoconfigure.AutoConfigurationImportFilter;
import org.springframework.boot.autoconfigure.AutoConfigurationMetadata;

/**
 * Keeps springdoc's auto-configurations out of the agent's context: the OpenAPI document and Swagger UI are built in a
 * child context on the first request for them ({@link ApiDocsFilter}), so none of springdoc, swagger-core or the
 * Jackson 2 stack they use is loaded (nor archived in the AOT cache) at start. Works on the class names only: nothing
 * of springdoc is loaded to decide. Registered in {@code META-INF/spring.factories}.
 */
public final class ApiDocsImportFilter implements AutoConfigurationImportFilter {

    static final String SPRINGDOC_PACKAGE = "org.springdoc.";

    @Override
    public boolean[] match(String[] autoConfigurationClasses, AutoConfigurationMetadata metadata) {
        boolean[] match = new boolean[autoConfigurationClasses.length];
        for (int i = 0; i < match.length; i++) {
            match[i] = !isSpringdoc(autoConfigurationClasses[i]);
        }
        return match;
    }

    static boolean isSpringdoc(String className) {
        return className != null && className.startsWith(SPRINGDOC_PACKAGE);
    }
}
