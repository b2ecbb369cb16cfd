package dev.berth.job;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A JSON job is held to what an HCL one is: a block Berth does not run is refused, an unset (null or empty) one passes. */
class UnsupportedFieldsTest {

    final JsonMapper json = JsonMapper.builder().build();

    ObjectNode job(String task) {
        return (ObjectNode) json.readTree("""
                {"ID": "j", "Name": "j", "Type": "batch", "Affinities": null, "TaskGroups": [{"Name": "g", "Volumes": {},
                 "Tasks": [%s]}]}""".formatted(task));
    }

    @Test
    void aVaultBlockInJsonIsRefusedAndUnsetFieldsPass() {
        assertThatThrownBy(() -> JobValidation.validate(job("{\"Name\": \"t\", \"Driver\": \"raw_exec\", \"Vault\": {\"Role\": \"x\"}}")))
                .isInstanceOf(JobException.class)
                .hasMessage("1 error occurred:\n\t* Task group g validation failed: Task t validation failed: \"vault\" is not supported by Berth yet\n\n");
        assertThatCode(() -> JobValidation.validate(job("{\"Name\": \"t\", \"Driver\": \"raw_exec\", \"Templates\": [], \"Vault\": null}")))
                .doesNotThrowAnyException();
    }

    @Test
    void aTemplateInJsonRunsAndAnInvalidOneGetsNomadsText() {
        assertThatCode(() -> JobValidation.validate(job("{\"Name\": \"t\", \"Driver\": \"raw_exec\", \"Templates\": "
                + "[{\"EmbeddedTmpl\": \"x\", \"DestPath\": \"local/x\"}]}"))).doesNotThrowAnyException();
        assertThatThrownBy(() -> JobValidation.validate(job("{\"Name\": \"t\", \"Driver\": \"raw_exec\", \"Templates\": "
                + "[{\"EmbeddedTmpl\": \"x\", \"DestPath\": \"../../../x\"}]}")))
                .hasMessage("1 error occurred:\n\t* Task group g validation failed: Task t validation failed: "
                        + "Template 1 validation failed: destination escapes allocation directory\n\n");
    }
}
