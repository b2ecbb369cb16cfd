package dev.berth.job;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Nomad's dispatch checks (its error texts) and the dispatched child's shape. */
class DispatchTest {

    final JsonMapper json = JsonMapper.builder().build();

    JsonNode parameterized(String payload) {
        return json.readTree("{\"Payload\":\"" + payload + "\",\"MetaRequired\":[\"customer\"],\"MetaOptional\":[\"priority\"]}");
    }

    @Test
    void payloadAndMetaRulesUseNomadsWords() {
        byte[] data = "hi".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> Dispatch.validate(parameterized("required"), new byte[0], Map.of("customer", "a")))
                .hasMessage("Payload is not provided but required by parameterized job");
        assertThatThrownBy(() -> Dispatch.validate(parameterized("forbidden"), data, Map.of("customer", "a")))
                .hasMessage("Payload provided but forbidden by parameterized job");
        assertThatThrownBy(() -> Dispatch.validate(parameterized("optional"), new byte[16 * 1024 + 1], Map.of("customer", "a")))
                .hasMessage("Payload exceeds maximum size; 16385 > 16384");
        assertThatThrownBy(() -> Dispatch.validate(parameterized("optional"), data, Map.of("customer", "a", "zone", "x", "color", "y")))
                .hasMessage("Dispatch request included unpermitted metadata keys: [color zone]");
        assertThatThrownBy(() -> Dispatch.validate(parameterized("optional"), data, Map.of("priority", "high")))
                .hasMessage("Dispatch did not provide required meta keys: [customer]");
        org.assertj.core.api.Assertions.assertThatCode(() -> Dispatch.validate(parameterized("optional"), data,
                Map.of("customer", "a", "priority", "b"))).doesNotThrowAnyException();
    }

    @Test
    void theChildCarriesParentMetaAndPayload() {
        ObjectNode parent = (ObjectNode) json.readTree("""
                {"ID":"render","Name":"render","Type":"batch","Version":3,"Status":"running","Meta":{"team":"x"},
                 "ParameterizedJob":{"Payload":"optional"},"TaskGroups":[]}""");
        ObjectNode child = Dispatch.derive(parent, "hi".getBytes(StandardCharsets.UTF_8), Map.of("customer", "acme"), 1_790_000_000L);
        assertThat(child.path("ID").asString()).matches("render/dispatch-1790000000-[0-9a-f]{8}");
        assertThat(child.path("Name").asString()).isEqualTo(child.path("ID").asString());
        assertThat(child.path("ParentID").asString()).isEqualTo("render");
        assertThat(child.path("Dispatched").asBoolean()).isTrue();
        assertThat(child.path("Meta").path("team").asString()).isEqualTo("x");
        assertThat(child.path("Meta").path("customer").asString()).isEqualTo("acme");
        assertThat(child.path("Payload").asString()).isEqualTo("aGk=");
        assertThat(child.has("Version")).isFalse();
        assertThat(parent.path("Meta").has("customer")).isFalse();
    }
}
