package dev.berth.alloc.task;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InterpolatorTest {

    final Interpolator interp = new Interpolator(
            Map.of("NOMAD_PORT_http", "25123", "NOMAD_ALLOC_ID", "abc", "odd.key", "dotted", "HOME", "/home/x"),
            Map.of("node.unique.name", "edge-1", "node.datacenter", "dc9", "node.class", "gpu", "attr.kernel.name", "linux",
                    "meta.rack", "r7", "node.unique.id", "nid"));

    @Test
    void replacesEnvironmentAndNodeKeys() {
        assertThat(interp.replace("-port=${NOMAD_PORT_http}")).isEqualTo("-port=25123");
        assertThat(interp.replace("${node.unique.name}/${node.datacenter}/${node.class}/${attr.kernel.name}/${meta.rack}"))
                .isEqualTo("edge-1/dc9/gpu/linux/r7");
        assertThat(interp.replace("${node.attr.kernel.name}-${node.meta.rack}")).isEqualTo("linux-r7");
        assertThat(interp.replace("${env[\"odd.key\"]} ${env[\"HOME\"]}")).isEqualTo("dotted /home/x");
        assertThat(interp.replace("a ${NOMAD_ALLOC_ID} b ${NOMAD_ALLOC_ID}")).isEqualTo("a abc b abc");
    }

    @Test
    void unknownReferencesStayAsWritten() {
        assertThat(interp.replace("${NOMAD_PORT_nope} ${attr.missing} ${env[\"NOPE\"]} $HOME ${ bad }"))
                .isEqualTo("${NOMAD_PORT_nope} ${attr.missing} ${env[\"NOPE\"]} $HOME ${ bad }");
        assertThat(interp.replace("cost: $5 ${")).isEqualTo("cost: $5 ${");
        assertThat(interp.replace(null)).isNull();
    }

    @Test
    void replacementValuesAreLiteral() {
        Interpolator i = new Interpolator(Map.of("X", "$1\\n${Y}"), Map.of());
        assertThat(i.replace("${X}")).isEqualTo("$1\\n${Y}");
    }

    @Test
    void configIsReplacedAtEveryDepthAndKeepsOtherValues() {
        Map<String, Object> config = Map.of("command", "/bin/app", "args", List.of("-p", "${NOMAD_PORT_http}", 3),
                "mounts", List.of(Map.of("source", "${NOMAD_ALLOC_ID}", "readonly", true)),
                "labels", Map.of("${NOMAD_ALLOC_ID}", "${node.unique.name}"));
        Map<String, Object> out = interp.replaceConfig(config);
        assertThat(out.get("args")).isEqualTo(List.of("-p", "25123", 3));
        assertThat(out.get("mounts")).isEqualTo(List.of(Map.of("source", "abc", "readonly", true)));
        assertThat(out.get("labels")).isEqualTo(Map.of("${NOMAD_ALLOC_ID}", "edge-1"));
        assertThat(interp.replaceValues(Map.of("A", "${meta.rack}"))).isEqualTo(Map.of("A", "r7"));
        assertThat(interp.replaceAll(List.of("${node.class}"))).containsExactly("gpu");
    }

    @Test
    void theTaskEnvironmentWinsOverNodeKeys() {
        Interpolator i = new Interpolator(Map.of("attr.kernel.name", "from-env"), Map.of("attr.kernel.name", "linux"));
        assertThat(i.replace("${attr.kernel.name}")).isEqualTo("from-env");
        assertThat(i.withEnv(Map.of()).replace("${attr.kernel.name}")).isEqualTo("linux");
        assertThat(Interpolator.forNode(Map.of("node.class", "c")).replace("${node.class}")).isEqualTo("c");
    }
}
