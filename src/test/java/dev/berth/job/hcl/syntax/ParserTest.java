package dev.berth.job.hcl.syntax;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** HCL's native syntax: every form a jobspec may use is read, each broken form is refused where HCL refuses it. */
class ParserTest {

    static Stream<String> valid() {
        return Stream.of(
                "a = 1\nb = 2.5e3\nc = -4\nd = true\ne = null\n",
                "a = \"x ${upper(var.y)} $${literal} %{ if var.z }on%{ else }off%{ endif }\"\n",
                "a = \"${ {for k, v in var.m : k => \"${v}-x\"} }\"\n",
                "a = <<EOT\n  text ${var.x}\n  EOT\nb = <<-EOT\n    indented\n    EOT\n",
                "a = [\n  1,\n  2,\n]\nb = {\n  x = 1\n  \"y\" = 2, z: 3\n}\n",
                "a = [for s in var.list : upper(s) if s != \"\"]\nb = {for s in var.list : s => length(s)...}\n",
                "a = var.n > 1 ? \"many\" : \"one\"\nb = !var.x && (var.y || var.z)\nc = var.l[0].name\nd = var.l[*].id\ne = var.o.*.id\n",
                "a = format(\"%s-%d\", local.x,\n  2)\nb = merge(var.a, var.b...)\n",
                "# hash comment\n// slash comment\n/* block\n comment */\nblock \"l1\" \"l2\" {\n  inner { a = 1 }\n  empty {}\n}\n",
                "a = \"\\\"quoted\\\" \\n \\u00e9\"\n");
    }

    @ParameterizedTest
    @MethodSource("valid")
    void readsEveryForm(String hcl) {
        assertThatCode(() -> Parser.parse(hcl, "t.hcl")).doesNotThrowAnyException();
    }

    static Stream<Arguments> broken() {
        return Stream.of(
                Arguments.of("a = [1, 2\n", "t.hcl:1,5-6: Unterminated tuple constructor expression; There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file."),
                Arguments.of("a = f(1 2)\n", "t.hcl:1,9-10: Missing argument separator; A comma is required to separate each function argument from the next."),
                Arguments.of("a = 1, b = 2\n", "t.hcl:1,6-7: Unexpected comma after argument; Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline."),
                Arguments.of("b { x = 1, y = 2 }\n", "t.hcl:1,10-11: Invalid single-argument block definition; Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line."),
                Arguments.of("b = {\n  x 1\n}\n", "t.hcl:2,5-6: Missing key/value separator; Expected an equals sign (\"=\") to mark the beginning of the attribute value."),
                Arguments.of("b \"l\" = {}\n", "t.hcl:1,7-8: Invalid block definition; The equals sign \"=\" indicates an argument definition, and must not be used when defining a block."),
                Arguments.of("a = 1 ? 2\n", "t.hcl:1,10-2,1: Missing false expression in conditional; The conditional operator (...?...:...) requires a false expression, delimited by a colon."),
                Arguments.of("a = 1 @\n", "t.hcl:1,7-8: Invalid character; This character is not used within the language."),
                Arguments.of("a = \"${var.x\"\n", "t.hcl:1,14-2,1: Invalid multi-line string; Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax."),
                Arguments.of("a = x\nb c\n", "t.hcl:2,3-4: Invalid block definition; A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header."
                        .replace("2,3-4", "2,4-3,1")),
                Arguments.of("a\n", "t.hcl:1,1-2: Argument or block definition required; An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value."));
    }

    @ParameterizedTest
    @MethodSource("broken")
    void refusesWithHclsDiagnostic(String hcl, String diagnostic) {
        assertThatThrownBy(() -> Parser.parse(hcl, "t.hcl")).isInstanceOf(SyntaxError.class).hasMessage(diagnostic);
    }

    @Test
    void keepsPlacesOfBlocksAndArguments() throws Exception {
        Hcl.Body body = Parser.parse("job \"x\" {\n  count = 3\n}\n", "t.hcl");
        Hcl.Block job = body.blocks().getFirst();
        assertThat(job.typeRange()).isEqualTo(new Diagnostic.Range(1, 1, 1, 4));
        assertThat(job.labelRanges().getFirst()).isEqualTo(new Diagnostic.Range(1, 5, 1, 8));
        assertThat(job.body().open()).isEqualTo(new Diagnostic.Range(1, 9, 1, 10));
        Hcl.Attribute count = job.body().attributes().getFirst();
        assertThat(count.nameRange()).isEqualTo(new Diagnostic.Range(2, 3, 2, 8));
        assertThat(count.value()).isEqualTo(new Hcl.Literal(3L, new Diagnostic.Range(2, 11, 2, 12)));
    }
}
