package dev.berth.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.convert.ConversionFailedException;
import org.springframework.core.env.Environment;

import dev.berth.config.PropertyChecks.InvalidPropertyException;

/**
 * One clear message for any invalid {@code berth.*} value: which key, what value, where it came from and why it
 * was rejected (a value that cannot be converted, or one that a properties record's {@link PropertyChecks} refuse). Runs before Boot's generic bind analyzers (which print type names and stack-trace fragments)
 * and leaves failures of other prefixes to them.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class BerthPropertiesFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {

    private static final String PREFIX = "berth";

    private final Environment environment;

    /** Boot's constructor: the environment tells where a value refused by a record's own checks came from. */
    public BerthPropertiesFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    BerthPropertiesFailureAnalyzer() {
        this(null);
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
        String name = cause.getName() == null ? "" : cause.getName().toString();
        if (!name.equals(PREFIX) && !name.startsWith(PREFIX + ".")) {
            return null;
        }
        InvalidPropertyException invalid = causeOf(cause, InvalidPropertyException.class);
        String description = "Invalid Berth configuration:" + System.lineSeparator()
                + "    " + (invalid != null ? describe(invalid, property(invalid.key(), cause)) : describe(cause));
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

    /**
     * The key, the value as written and its origin when the environment holds that property, then the rule
     * ({@code 'berth.gc.max-allocs' = '0' (from ...): must be at least 1, was 0}); otherwise the check's own message.
     */
    private ConfigurationProperty property(String key, BindException cause) {
        if (environment != null) {
            ConfigurationPropertyName name = ConfigurationPropertyName.of(key);
            for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
                ConfigurationProperty property = source.getConfigurationProperty(name);
                if (property != null) {
                    return property;
                }
            }
        }
        return cause.getProperty();
    }

    private static String describe(InvalidPropertyException invalid, ConfigurationProperty property) {
        if (property == null || !property.getName().toString().equals(invalid.key())) {
            return invalid.getMessage();
        }
        StringBuilder text = new StringBuilder().append('\'').append(invalid.key()).append("' = '").append(property.getValue()).append('\'');
        appendOrigin(text, property.getOrigin());
        return text.append(": ").append(invalid.rule()).toString();
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
