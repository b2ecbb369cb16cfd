package dev.berth.config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.convert.ConversionFailedException;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;

/**
 * One clear message for any invalid {@code berth.*} value: which key, what value, where it came from and why it
 * was rejected. Runs before Boot's generic bind analyzers (which print type names and stack-trace fragments)
 * and leaves failures of other prefixes to them.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class BerthPropertiesFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {

    private static final String PREFIX = "berth";

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
        String name = cause.getName() == null ? "" : cause.getName().toString();
        if (!name.equals(PREFIX) && !name.startsWith(PREFIX + ".")) {
            return null;
        }
        List<String> problems = new ArrayList<>();
        BindValidationException validation = causeOf(cause, BindValidationException.class);
        if (validation != null) {
            for (ObjectError error : validation.getValidationErrors()) {
                problems.add(describe(validation, error));
            }
        } else {
            problems.add(describe(cause));
        }
        String description = "Invalid Berth configuration:" + System.lineSeparator()
                + problems.stream().map(p -> "    " + p).collect(Collectors.joining(System.lineSeparator()));
        String action = "Correct the value in application.yml (or the matching BERTH_* environment variable); "
                + "every berth.* key, its default and its allowed values are listed in docs/configuration.md.";
        return new FailureAnalysis(description, action, cause);
    }

    private static String describe(BindException cause) {
        StringBuilder text = new StringBuilder();
        ConfigurationProperty property = cause.getProperty();
        if (property != null) {
            text.append('\'').append(property.getName()).append("' = '").append(property.getValue()).append('\'');
            appendOrigin(text, property.getOrigin());
        } else {
            text.append('\'').append(cause.getName()).append('\'');
        }
        text.append(": ").append(reason(cause));
        return text.toString();
    }

    private static String describe(BindValidationException validation, ObjectError error) {
        StringBuilder text = new StringBuilder();
        if (error instanceof FieldError field) {
            // Bean validation names the Java field (maxAllocs); operators write, and the bound properties hold, max-allocs.
            String key = DataObjectPropertyName.toDashedForm(field.getField());
            String full = key.startsWith(validation.getValidationErrors().getName().toString())
                    ? key : validation.getValidationErrors().getName() + "." + key;
            text.append('\'').append(full).append("' = '").append(field.getRejectedValue()).append('\'');
            ConfigurationProperty bound = validation.getValidationErrors().getBoundProperties().stream()
                    .filter(p -> p.getName().toString().equals(full))
                    .findFirst().orElse(null);
            if (bound != null) {
                appendOrigin(text, bound.getOrigin());
            }
        } else {
            text.append('\'').append(validation.getValidationErrors().getName()).append('\'');
        }
        text.append(": ").append(error.getDefaultMessage());
        return text.toString();
    }

    private static String reason(Throwable cause) {
        ConversionFailedException conversion = causeOf(cause, ConversionFailedException.class);
        if (conversion != null && conversion.getTargetType().getType().isEnum()) {
            String allowed = Arrays.stream(conversion.getTargetType().getType().getEnumConstants())
                    .map(c -> ((Enum<?>) c).name().toLowerCase(Locale.ROOT).replace('_', '-'))
                    .collect(Collectors.joining(", "));
            return "must be one of: " + allowed;
        }
        if (conversion != null) {
            return "cannot be converted to " + conversion.getTargetType().getType().getSimpleName();
        }
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }

    private static <T extends Throwable> T causeOf(Throwable failure, Class<T> type) {
        for (Throwable each = failure; each != null; each = each.getCause()) {
            if (type.isInstance(each)) {
                return type.cast(each);
            }
            if (each.getCause() == each) {
                break;
            }
        }
        return null;
    }

    private static void appendOrigin(StringBuilder text, Origin origin) {
        if (origin != null) {
            text.append(" (from ").append(origin).append(')');
        }
    }
}
