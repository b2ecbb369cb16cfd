package dev.berth.alloc.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Nomad's {@code Template.Validate} texts for each problem; null for a template Nomad accepts. */
class TemplateSpecsTest {

    static TemplateSpec t(String source, String dest, String data, String mode, String signal, TemplateSpec.ChangeScript script,
                          Long splay, String perms, Boolean env, TemplateSpec.WaitSpec wait) {
        return new TemplateSpec(source, dest, data, mode, signal, script, splay, perms, null, null, null, null, env, null, wait);
    }

    static Stream<Arguments> problems() {
        return Stream.of(
                Arguments.of(t(null, "local/x", "x", null, null, null, null, null, null, null), null),
                Arguments.of(t(null, "local/x", null, null, null, null, null, null, null, null),
                        "Must specify a source path or have an embedded template"),
                Arguments.of(t(null, null, "x", null, null, null, null, null, null, null), "Must specify a destination for the template"),
                Arguments.of(t(null, "../../x", "x", null, null, null, null, null, null, null), "destination escapes allocation directory"),
                Arguments.of(t(null, "../alloc/x", "x", null, null, null, null, null, null, null), null),
                Arguments.of(t(null, "local/x", "x", "reload", null, null, null, null, null, null),
                        "Invalid change mode. Must be one of the following: noop, signal, script, restart"),
                Arguments.of(t(null, "local/x", "x", "signal", null, null, null, null, null, null),
                        "Must specify signal value when change mode is signal"),
                Arguments.of(t(null, "local/x", "x", "signal", "SIGHUP", null, null, null, true, null),
                        "cannot use signals with env var templates"),
                Arguments.of(t(null, "local/x", "x", "script", null, null, null, null, null, null),
                        "must specify change script configuration value when change mode is script"),
                Arguments.of(t(null, "local/x", "x", "script", null, new TemplateSpec.ChangeScript("", List.of(), null, null), null, null,
                        null, null), "must specify script path value when change mode is script"),
                Arguments.of(t(null, "local/x", "x", null, null, null, -1L, null, null, null), "Must specify positive splay value"),
                Arguments.of(t(null, "local/x", "x", null, null, null, null, "0999", null, null),
                        "Failed to parse \"0999\" as octal: strconv.ParseUint: parsing \"0999\": invalid syntax"),
                Arguments.of(t(null, "local/x", "x", null, null, null, null, null, null, new TemplateSpec.WaitSpec(10_000_000_000L, 5_000_000_000L)),
                        "wait min 10s is greater than max 5s"));
    }

    @ParameterizedTest
    @MethodSource
    void problems(TemplateSpec spec, String problem) {
        assertThat(TemplateSpecs.problem(spec)).isEqualTo(problem);
    }
}
