package dev.berth.job;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A job whose allocations the submission path would refuse is refused at registration (it used to wait as a blocked
 * evaluation for ever: the first jobs benchmark asked for 4 MB per task and placed nothing).
 */
class PlacementValidationTest {

    final JsonMapper json = JsonMapper.builder().build();

    ObjectNode job(int memoryMb) {
        return JobDefaults.canonicalize((ObjectNode) json.readTree("""
                {"ID":"small","Type":"service","TaskGroups":[{"Name":"g","Count":2,
                  "Tasks":[{"Name":"t","Driver":"raw_exec","Config":{"command":"/bin/sleep","args":["60"]},
                    "Resources":{"CPU":1,"MemoryMB":%d}}]}]}""".formatted(memoryMb)));
    }

    @Test
    void tooLittleMemoryIsA400NamingGroupFieldAndNomadsMinimum() {
        assertThatThrownBy(() -> JobValidation.validateForPlacement(job(4)))
                .isInstanceOfSatisfying(JobException.class, e -> org.assertj.core.api.Assertions.assertThat(e.kind()).isEqualTo(JobException.Kind.INVALID))
                .hasMessageContaining("Task group g validation failed")
                .hasMessageContaining("Minimum MemoryMB value is 10; got 4");
        assertThatCode(() -> JobValidation.validateForPlacement(job(10))).doesNotThrowAnyException();
    }

    ObjectNode withResources(String resources) {
        return JobDefaults.canonicalize((ObjectNode) json.readTree("""
                {"ID":"cores","Type":"service","TaskGroups":[{"Name":"g","Count":1,
                  "Tasks":[{"Name":"t","Driver":"raw_exec","Config":{"command":"/bin/sleep","args":["60"]},
                    "Resources":%s}]}]}""".formatted(resources)));
    }

    @Test
    void reservedCoresArePlacedWithoutTheDefaultCpu() {
        assertThatCode(() -> JobValidation.validateForPlacement(withResources("{\"Cores\":2,\"MemoryMB\":64}")))
                .doesNotThrowAnyException();
    }

    @Test
    void coresAndCpuTogetherOrNegativeCoresAreRefusedAsNomadDoes() {
        assertThatThrownBy(() -> JobValidation.validateForPlacement(withResources("{\"Cores\":1,\"CPU\":500,\"MemoryMB\":64}")))
                .isInstanceOf(JobException.class)
                .hasMessageContaining("Task group g validation failed")
                .hasMessageContaining("Task can only ask for 'cpu' or 'cores' resource, not both.");
        assertThatThrownBy(() -> JobValidation.validateForPlacement(withResources("{\"Cores\":-1,\"MemoryMB\":64}")))
                .isInstanceOf(JobException.class)
                .hasMessageContaining("cores value (-1) cannot be negative");
    }
}
