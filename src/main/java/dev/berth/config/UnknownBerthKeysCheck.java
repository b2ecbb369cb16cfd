package dev.berth.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;

/**
 * Refuses to start when a {@code berth.*} key that Berth does not know is configured — a typo such as
 * {@code berth.drivers.raw-exec.enabeld=true} would otherwise be ignored silently and the operator would run with the
 * default. The known keys are the generated configuration metadata ({@code META-INF/spring-configuration-metadata.json}
 * plus {@code additional-spring-configuration-metadata.json}); map- and list-valued keys ({@code berth.meta.*},
 * {@code berth.acl.tokens[0].secret}) accept anything below them. Only configuration files and command-line
 * arguments are checked (see {@link #checked}).
 */
public class UnknownBerthKeysCheck implements EnvironmentPostProcessor, Ordered {

    private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("berth");
    private static final String METADATA = "META-INF/spring-configuration-metadata.json";
    /** How a {@code berth.*} name starts in a metadata file ({@code "name": "berth.…"}; names are plain ASCII). */
    private static final String BERTH_NAME = "\"berth.";
    private static final JsonFactory JSON = new JsonFactory();

    /** After config data (application.yml) has been loaded. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE - 10;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        List<ConfigurationPropertyName> exact = new ArrayList<>();
        List<ConfigurationPropertyName> containers = new ArrayList<>();
        if (!readMetadata(exact, containers)) {
            return; // no metadata on the class path (e.g. an IDE build without annotation processing): nothing to check
        }
        TreeSet<String> unknown = new TreeSet<>();
        for (PropertySource<?> source : environment.getPropertySources()) {
            if (!checked(source)) {
                continue;
            }
            ConfigurationPropertySource adapted = ConfigurationPropertySource.from(source);
            if (!(adapted instanceof IterableConfigurationPropertySource iterable)) {
                continue;
            }
            iterable.stream().filter(ROOT::isAncestorOf)
                    .filter(name -> !known(name, exact, containers))
                    .forEach(name -> unknown.add(name + " (from " + source.getName() + ")"));
        }
        if (!unknown.isEmpty()) {
            throw new InvalidConfigurationException(
                    "Unknown Berth configuration key" + (unknown.size() > 1 ? "s" : "") + ":\n    " + String.join("\n    ", unknown),
                    "Fix the spelling or remove the key. Every berth.* key, its default and its allowed values are listed in "
                            + "docs/configuration.md.");
        }
    }

    /**
     * Only what an operator writes for Berth: application.yml/properties files and command-line arguments. System
     * properties and environment variables also carry build and tool settings under {@code berth.} (and the
     * environment's {@code BERTH_…} form cannot be mapped back to one key), so they are not checked.
     */
    private static boolean checked(PropertySource<?> source) {
        String name = source.getName();
        return name.equals("commandLineArgs") || name.startsWith("Config resource");
    }

    static boolean known(ConfigurationPropertyName name, Collection<ConfigurationPropertyName> exact,
            Collection<ConfigurationPropertyName> containers) {
        if (exact.contains(name)) {
            return true;
        }
        for (ConfigurationPropertyName container : containers) {
            if (container.equals(name) || container.isAncestorOf(name)) {
                return true;
            }
        }
        // a parent of known keys written as an (empty) map, e.g. "berth.gc: {}" in YAML
        for (ConfigurationPropertyName key : exact) {
            if (name.isAncestorOf(key)) {
                return true;
            }
        }
        return false;
    }

    private static boolean readMetadata(List<ConfigurationPropertyName> exact, List<ConfigurationPropertyName> containers) {
        boolean found = false;
        ClassLoader loader = UnknownBerthKeysCheck.class.getClassLoader();
        for (String file : List.of(METADATA, "META-INF/additional-spring-configuration-metadata.json")) {
            try {
                // every jar has its own metadata file: read them all and keep the berth.* entries
                for (URL url : Collections.list(loader.getResources(file))) {
                    byte[] metadata;
                    try (InputStream in = url.openStream()) {
                        metadata = in.readAllBytes();
                    }
                    if (!mentionsBerth(metadata)) {
                        continue; // Spring Boot's own files (~600 KB of JSON in 20 jars) name no berth.* key: not parsed
                    }
                    for (MetadataEntry property : properties(metadata)) {
                        String name = property.name();
                        if (!name.startsWith("berth.")) {
                            continue;
                        }
                        found |= file.equals(METADATA);
                        String type = property.type();
                        ConfigurationPropertyName parsed = ConfigurationPropertyName.of(name);
                        if (type.startsWith("java.util.Map") || type.startsWith("java.util.List")
                                || type.startsWith("java.util.Set") || type.endsWith("[]")) {
                            containers.add(parsed);
                        } else {
                            exact.add(parsed);
                        }
                    }
                }
            } catch (IOException ex) {
                throw new UncheckedIOException("cannot read " + file, ex);
            }
        }
        return found;
    }

    /** One entry of a metadata file's {@code properties}: its {@code name} and {@code type} ("" when absent). */
    record MetadataEntry(String name, String type) {
    }

    /**
     * The entries of a metadata file's {@code properties} array, read with Jackson's streaming parser (building a
     * {@code JsonMapper} and a tree at every start cost more than the rest of the check). A value that is not a scalar
     * reads as "".
     */
    static List<MetadataEntry> properties(byte[] metadata) {
        List<MetadataEntry> entries = new ArrayList<>();
        try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), metadata)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return entries;
            }
            for (String field = parser.nextName(); field != null; field = parser.nextName()) {
                if (parser.nextToken() != JsonToken.START_ARRAY || !field.equals("properties")) {
                    parser.skipChildren();
                    continue;
                }
                for (JsonToken element = parser.nextToken(); element != JsonToken.END_ARRAY; element = parser.nextToken()) {
                    if (element != JsonToken.START_OBJECT) {
                        parser.skipChildren();
                        entries.add(new MetadataEntry("", "")); // as Jackson's tree reads it: no name, no type
                        continue;
                    }
                    String name = "";
                    String type = "";
                    for (String key = parser.nextName(); key != null; key = parser.nextName()) {
                        JsonToken value = parser.nextToken();
                        String text = value.isScalarValue() && value != JsonToken.VALUE_NULL ? parser.getString() : "";
                        parser.skipChildren();
                        if (key.equals("name")) {
                            name = text;
                        } else if (key.equals("type")) {
                            type = text;
                        }
                    }
                    entries.add(new MetadataEntry(name, type));
                }
            }
        }
        return entries;
    }

    /** Whether a metadata file can name a {@code berth.*} key: its text holds {@code "berth.} somewhere. */
    static boolean mentionsBerth(byte[] metadata) {
        return new String(metadata, StandardCharsets.ISO_8859_1).contains(BERTH_NAME);
    }
}
