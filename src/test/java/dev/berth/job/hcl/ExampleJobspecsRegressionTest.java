package dev.berth.job.hcl;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every example jobspec in README.md, docs/*.md and the test jobspecs parses to the job JSON recorded under
 * {@code jobspecs/expected/} (recorded with the parser before the strict schema check): the check refuses broken
 * jobspecs without changing what a valid one becomes.
 */
class ExampleJobspecsRegressionTest {

    static Stream<Arguments> examples() throws Exception {
        Map<String, String> all = ExampleJobspecs.all();
        assertThat(all).containsKeys("README-web", "README-hello", "resource-service");
        return all.entrySet().stream().map((e) -> Arguments.of(e.getKey(), e.getValue()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void parsesAsRecorded(String name, String hcl) throws Exception {
        JsonMapper json = JsonMapper.builder().build();
        Path expected = Path.of("src/test/resources/jobspecs/expected", name + ".json");
        assertThat(expected).as("recorded JSON for a new example: add " + expected).exists();
        // compared as the API answers it, as JSON text (numbers by value, fields in any order)
        JsonNode job = json.readTree(json.writeValueAsString(new JobspecParser().parse(hcl)));
        assertThat(job).isEqualTo(json.readTree(Files.readString(expected)));
    }
}
