package dev.berth.alloc.spec;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** A group's volumes and its tasks' mounts are checked with Nomad's texts before anything is admitted. */
class VolumeSpecsTest {

    private static AllocationSpec alloc(String volume, String mount) {
        String json = """
                {"ID":"a1","Name":"j.g[0]","JobID":"j","TaskGroup":"g","Job":{"ID":"j","TaskGroups":[{"Name":"g",
                  "Volumes":{"v":%s},
                  "Tasks":[{"Name":"t","Driver":"exec","Config":{"command":"/bin/true"},"VolumeMounts":[%s]}]}]}}"""
                .formatted(volume, mount);
        return JsonMapper.builder().build().readValue(json, AllocationSpec.class);
    }

    @Test
    void aHostVolumeAndItsMountPass() {
        assertThatCode(() -> AllocSpecs.validateStructure(alloc("{\"Type\":\"host\",\"Source\":\"data\"}",
                "{\"Volume\":\"v\",\"Destination\":\"/srv/data\",\"PropagationMode\":\"private\"}"))).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "{\"Type\":\"host\"}                  | {\"Volume\":\"v\",\"Destination\":\"/d\"}  | Job.TaskGroups[g].Volumes[v].Source | volume has an empty source",
        "{\"Type\":\"nfs\",\"Source\":\"s\"}  | {\"Volume\":\"v\",\"Destination\":\"/d\"}  | Job.TaskGroups[g].Volumes[v].Type | volume has unrecognized type nfs",
        "{\"Type\":\"csi\",\"Source\":\"s\"}  | {\"Volume\":\"v\",\"Destination\":\"/d\"}  | Job.TaskGroups[g].Volumes[v].Type | volume type csi is not supported by Berth: it mounts host volumes only",
        "{\"Type\":\"host\",\"Source\":\"s\"} | {\"Volume\":\"w\",\"Destination\":\"/d\"}  | Job.TaskGroups[g].Tasks[t].VolumeMounts[0].Volume | Volume Mount (0) references undefined volume w",
        "{\"Type\":\"host\",\"Source\":\"s\"} | {\"Volume\":\"v\"}                        | Job.TaskGroups[g].Tasks[t].VolumeMounts[0].Destination | Volume Mount (0) has an empty destination",
        "{\"Type\":\"host\",\"Source\":\"s\"} | {\"Volume\":\"v\",\"Destination\":\"../x\"} | Job.TaskGroups[g].Tasks[t].VolumeMounts[0].Destination | Volume Mount (0) destination ../x must not contain \"..\"",
        "{\"Type\":\"host\",\"Source\":\"s\"} | {\"Volume\":\"v\",\"Destination\":\"/d\",\"PropagationMode\":\"bidirectional\"} | Job.TaskGroups[g].Tasks[t].VolumeMounts[0].PropagationMode | Volume Mount (0) propagation mode bidirectional is not supported by Berth: it mounts host volumes private",
    })
    void aBrokenVolumeOrMountIsRefusedNamingTheField(String volume, String mount, String field, String message) {
        assertThatExceptionOfType(SpecValidationException.class)
                .isThrownBy(() -> AllocSpecs.validateStructure(alloc(volume, mount)))
                .withMessage(message)
                .satisfies(e -> org.assertj.core.api.Assertions.assertThat(e.field()).isEqualTo(field));
    }
}
