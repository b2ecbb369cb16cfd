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
        for (Map.Entry<String, byte[]> file : metadataFiles().entrySet()) {
            if (UnknownBerthKeysCheck.mentionsBerth(file.getValue())) {
                continue;
            }
            skipped++;
            for (JsonNode property : json.readTree(file.getValue()).path("properties")) {
                String name = property.path("name").asString("");
                if (name.startsWith("berth")) {
                    berthKeysInSkipped.add(name + " in " + file.getKey());
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
        for (Map.Entry<String, byte[]> file : metadataFiles().entrySet()) {
            assertThat(UnknownBerthKeysCheck.properties(file.getValue())).as(file.getKey())
                    .isEqualTo(treeEntries(json, file.getValue()));
            files++;
        }
        assertThat(files).isGreaterThan(2);

        byte[] odd = """
                {"groups": [{"name": "x"}], "properties": [{"name": "berth.a", "type": "java.lang.String",
                  "deprecation": {"level": "error"}, "defaultValue": [1, 2]}, 7, {"type": "java.util.Map<a,b>"},
                  {"name": "berth.b", "type": null}]}
                """.getBytes(StandardCharsets.UTF_8);
        assertThat(UnknownBerthKeysCheck.properties(odd)).isEqualTo(treeEntries(json, odd)).containsExactly(
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

    /** Every configuration metadata file on the test class path, by its URL, as bytes. */
    private Map<String, byte[]> metadataFiles() throws IOException {
        Map<String, byte[]> files = new java.util.LinkedHashMap<>();
        for (String file : List.of("META-INF/spring-configuration-metadata.json",
                "META-INF/additional-spring-configuration-metadata.json")) {
            for (URL url : Collections.list(getClass().getClassLoader().getResources(file))) {
                try (InputStream in = url.openStream()) {
                    files.put(url.toString(), in.readAllBytes());
                }
            }
        }
        return files;
    }

    /** The name/type pairs of a metadata file's properties, read through Jackson's tree. */
    private static List<UnknownBerthKeysCheck.MetadataEntry> treeEntries(JsonMapper json, byte[] metadata) {
        List<UnknownBerthKeysCheck.MetadataEntry> tree = new ArrayList<>();
        for (JsonNode property : json.readTree(metadata).path("properties")) {
            tree.add(new UnknownBerthKeysCheck.MetadataEntry(property.path("name").asString(""),
                    property.path("type").asString("")));
        }
        return tree;
    }

    private static void check(Map<String, Object> commandLine) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("commandLineArgs", commandLine));
        new UnknownBerthKeysCheck().postProcessEnvironment(environment, null);
    }
}
