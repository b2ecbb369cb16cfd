package dev.berth.api;

import java.lang.annotation.Annotation;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.context.ApplicationContext;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;

/**
 * The child context that holds springdoc ({@link ApiDocsChildConfiguration}), its parent being the agent's context.
 * springdoc finds the controllers and advice it documents with {@code getBeansWithAnnotation}, which looks at one
 * context only: here it also returns the ancestors' beans (a bean of this context wins over an ancestor's of the same
 * name), so the document describes the agent's endpoints as it did when springdoc lived in the agent's context.
 * Spring's own lookups (handler mappings, controller advice) use bean names and types, not this method.
 */
class ApiDocsContext extends AnnotationConfigWebApplicationContext {

    @Override
    public Map<String, Object> getBeansWithAnnotation(Class<? extends Annotation> annotationType) {
        Deque<ApplicationContext> lineage = new ArrayDeque<>();
        for (ApplicationContext context = getParent(); context != null; context = context.getParent()) {
            lineage.push(context);
        }
        Map<String, Object> beans = new LinkedHashMap<>();
        lineage.forEach(ancestor -> beans.putAll(ancestor.getBeansWithAnnotation(annotationType)));
        beans.putAll(super.getBeansWithAnnotation(annotationType));
        return beans;
    }
}
