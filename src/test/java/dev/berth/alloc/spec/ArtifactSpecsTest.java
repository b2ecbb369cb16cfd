package dev.berth.alloc.spec;

import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Nomad's {@code TaskArtifact} defaults and validation, with Nomad's texts. */
class ArtifactSpecsTest {

    static TaskArtifactSpec artifact(String source, String mode, String destination, String checksum) {
        return new TaskArtifactSpec(source, checksum == null ? null : Map.of("checksum", checksum), null, mode, null, destination, null);
    }

    @Test
    void defaultsAreNomads() {
        assertThat(artifact("https://x/app.tgz", null, null, null).destination()).isEqualTo("local/");
        assertThat(artifact("https://x/app.tgz", null, null, null).mode()).isEqualTo("any");
        assertThat(artifact("https://x/dl/run.sh", "file", null, null).destination()).isEqualTo("local/run.sh");
        assertThat(artifact("https://x/dl/run.sh", "file", "", null).destination()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "https://x/a | -    | local/         | -                   | -",
            "https://x/a | dir  | ../alloc/data  | -                   | -",
            "https://x/a | -    | /local/abs     | -                   | -",
            "''          | -    | -              | -                   | source must be specified",
            "https://x/a | tree | -              | -                   | invalid artifact mode \"tree\"; must be one of: any, file, dir",
            "https://x/a | -    | ../../etc      | -                   | destination escapes allocation directory",
            "https://x/a | -    | local/../../.. | -                   | destination escapes allocation directory",
            "https://x/a | -    | -              | ' '                 | checksum value cannot be empty",
            "https://x/a | -    | -              | abcd                | checksum must be given as \"type:value\"; got \"abcd\"",
            "https://x/a | -    | -              | sha256:abcd         | invalid sha256 checksum: abcd",
            "https://x/a | -    | -              | crc32:abcd          | unsupported checksum type: crc32",
            "https://x/a | -    | -              | md5:zz              | invalid checksum: ",
            "https://x/a | -    | -              | md5:${NOMAD_META_x} | -",
            "https://x/a | -    | -              | md5:d41d8cd98f00b204e9800998ecf8427e | -"})
    void eachArtifactIsCheckedAsNomadChecksIt(String source, String mode, String destination, String checksum, String problem) {
        String found = ArtifactSpecs.problem(artifact(source, mode, destination, checksum));
        if (problem == null) {
            assertThat(found).isNull();
        } else {
            assertThat(found).startsWith(problem);
        }
    }
}
