package dev.berth.config;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.junit.jupiter.api.Test;

import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The check knows every berth.* key of the metadata, and parses only the metadata files that can name one. */
class UnknownBerthKeysCheckTest {

    @Test
    void aMetadataFileIsParsedOnlyWhenItCanNameABerthKey() throws IOException {
        assertThat(UnknownBerthKeysCheck.mentionsBerth(
                "{\"properties\": [{\"name\": \"berth.data-dir\"}]}".getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThat(UnknownBerthKeysCheck.mentionsBerth(
                "{\"properties\": [{\"name\": \"server.port\", \"description\": \"a berth\"}]}".getBytes(StandardCharsets.UTF_8)))
                .isFalse();

        // every file skipped on this class path (Spring Boot's) names no berth.* key when parsed in full
        JsonMapper json = JsonMapper.builder().build();
        int skipped = 0;
        List<String> berthKeysInSkipped = new ArrayList<>();
        for (String file : List.of("META-INF/spring-configuration-metadata.json",
                "META-INF/additional-spring-configuration-metadata.json")) {
            for (URL url : Collections.list(getClass().getClassLoader().getResources(file))) {
                byte[] metadata;
                try (InputStream in = url.openStream()) {
                    metadata = in.readAllBytes();
                }
                if (UnknownBerthKeysCheck.mentionsBerth(metadata)) {
                    continue;
                }
                skipped++;
                for (JsonNode property : json.readTree(metadata).path("properties")) {
                    String name = property.path("name").asString("");
                    if (name.startsWith("berth")) {
                        berthKeysInSkipped.add(name + " in " + url);
                    }
                }
            }
        }
        assertThat(skipped).as("Spring Boot's metadata files").isPositive();
        assertThat(berthKeysInSkipped).isEmpty();
    }

    @Test
    void theStreamingReadSeesWhatJacksonsTreeSees() throws IOException {
        JsonMapper json = JsonMapper.builder().build();
        int files = 0;
        for (String file : List.of("META-INF/spring-configuration-metadata.json",
                "META-INF/additional-spring-configuration-metadata.json")) {
            for (URL url : Collections.list(getClass().getClassLoader().getResources(file))) {
                byte[] metadata;
                try (InputStream in = url.openStream()) {
                    metadata = in.readAllBytes();
                }
                List<UnknownBerthKeysCheck.MetadataEntry> tree = new ArrayList<>();
                for (JsonNode property : json.readTree(metadata).path("properties")) {
                    tree.add(new UnknownBerthKeysCheck.MetadataEntry(property.path("name").asString(""),
                            property.path("type").asString("")));
                }
                assertThat(UnknownBerthKeysCheck.properties(metadata)).as(url.toString()).isEqualTo(tree);
                files++;
            }
        }
        assertThat(files).isGreaterThan(2);

        byte[] odd = """
                {"groups": [{"name": "x"}], "properties": [{"name": "berth.a", "type": "java.lang.String",
                  "deprecation": {"level": "error"}, "defaultValue": [1, 2]}, 7, {"type": "java.util.Map<a,b>"},
                  {"name": "berth.b", "type": null}]}
                """.getBytes(StandardCharsets.UTF_8);
        List<UnknownBerthKeysCheck.MetadataEntry> tree = new ArrayList<>();
        for (JsonNode property : json.readTree(odd).path("properties")) {
            tree.add(new UnknownBerthKeysCheck.MetadataEntry(property.path("name").asString(""),
                    property.path("type").asString("")));
        }
        assertThat(UnknownBerthKeysCheck.properties(odd)).isEqualTo(tree).containsExactly(
                new UnknownBerthKeysCheck.MetadataEntry("berth.a", "java.lang.String"),
                new UnknownBerthKeysCheck.MetadataEntry("", ""),
                new UnknownBerthKeysCheck.MetadataEntry("", "java.util.Map<a,b>"),
                new UnknownBerthKeysCheck.MetadataEntry("berth.b", ""));
    }

    @Test
    void knownKeysPassAndATypoStopsTheStart() {
        assertThatNoException().isThrownBy(() -> check(Map.of("berth.data-dir", "/tmp/x",
                "berth.drivers.raw-exec.enabled", "true", "berth.meta.rack", "r1")));

        assertThatThrownBy(() -> check(Map.of("berth.drivers.raw-exec.enabeld", "true")))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("berth.drivers.raw-exec.enabeld (from commandLineArgs)");
    }

    private static void check(Map<String, Object> commandLine) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("commandLineArgs", commandLine));
        new UnknownBerthKeysCheck().postProcessEnvironment(environment, null);
    }
}
