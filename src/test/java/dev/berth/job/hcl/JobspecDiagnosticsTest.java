package dev.berth.job.hcl;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Broken jobspecs are refused whole, with the diagnostic Nomad's parser gives for each (HCL's summary and detail at
 * {@code input.hcl:<line>,<col>-<col>}); what Nomad accepts and Berth does not run is refused at its place too.
 */
class JobspecDiagnosticsTest {

    static Stream<Arguments> broken() {
        return Stream.of(
                Arguments.of("missing expression", """
                        job "x" {
                          group "g" {
                            task "t" {
                              driver = }
                          }
                        }
                        """, "input.hcl:4,16-17: Invalid expression; Expected the start of an expression, but found an invalid expression token."),
                Arguments.of("missing expression at end of line", "job \"x\" {\n  type =\n}\n",
                        "input.hcl:2,9-3,1: Invalid expression; Expected the start of an expression, but found an invalid expression token."),
                Arguments.of("misspelt block", "job \"x\" {\n  grup \"g\" {}\n}\n",
                        "input.hcl:2,3-7: Unsupported block type; Blocks of type \"grup\" are not expected here. Did you mean \"group\"?"),
                Arguments.of("unknown argument", "job \"x\" {\n  group \"g\" {\n    cont = 2\n  }\n}\n",
                        "input.hcl:3,5-9: Unsupported argument; An argument named \"cont\" is not expected here. Did you mean \"count\"?"),
                Arguments.of("block written as an argument", "job \"x\" {\n  group = 1\n}\n",
                        "input.hcl:2,3-8: Unsupported argument; An argument named \"group\" is not expected here. Did you mean to define a block of type \"group\"?"),
                Arguments.of("argument written as a block", "job \"x\" {\n  group \"g\" {\n    task \"t\" {\n      driver {}\n    }\n  }\n}\n",
                        "input.hcl:4,7-13: Unsupported block type; Blocks of type \"driver\" are not expected here. Did you mean to define argument \"driver\"? If so, use the equals sign to assign it a value."),
                Arguments.of("misspelt resources", "job \"x\" {\n  group \"g\" {\n    task \"t\" {\n      driver = \"raw_exec\"\n      resource {\n        memory = 64\n      }\n    }\n  }\n}\n",
                        "input.hcl:5,7-15: Unsupported block type; Blocks of type \"resource\" are not expected here. Did you mean \"resources\"?"),
                Arguments.of("unclosed block", "job \"x\" {\n  group \"g\" {\n    count = 1\n}\n",
                        "input.hcl:1,9-10: Unclosed configuration block; There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."),
                Arguments.of("second job block", "job \"a\" {\n  group \"g\" {}\n}\njob \"b\" {\n  group \"g\" {}\n}\n",
                        "input.hcl:4,1-8: Duplicate job block; Only one block of type \"job\" is allowed. Previous definition was at input.hcl:1,1-8."),
                Arguments.of("no job block", "variable \"x\" {\n  default = 1\n}\n", "Missing job block; A job block is required"),
                Arguments.of("job without a name", "job {\n}\n", "input.hcl:1,5-6: Missing name for job; All job blocks must have 1 labels (name)."),
                Arguments.of("group with two labels", "job \"x\" {\n  group \"g\" \"h\" {}\n}\n",
                        "input.hcl:2,13-16: Extraneous label for group; Only 1 labels (name) are expected for group blocks."),
                Arguments.of("missing required argument", "job \"x\" {\n  group \"g\" {\n    task \"t\" {\n      lifecycle {\n        sidecar = true\n      }\n    }\n  }\n}\n",
                        "input.hcl:4,17-17: Missing required argument; The argument \"hook\" is required, but no definition was found."),
                Arguments.of("number required", "job \"x\" {\n  group \"g\" {\n    count = \"two\"\n  }\n}\n",
                        "input.hcl:3,13-18: Unsuitable value type; Unsuitable value: a number is required"),
                Arguments.of("list required", "job \"x\" {\n  datacenters = \"dc1\"\n}\n",
                        "input.hcl:2,17-22: Unsuitable value type; Unsuitable value: list of string required"),
                Arguments.of("bad duration", "job \"x\" {\n  group \"g\" {\n    restart {\n      delay = \"ten seconds\"\n    }\n  }\n}\n",
                        "input.hcl:4,15-28: Unsuitable value type; Unsuitable duration value: time: invalid duration \"ten seconds\""),
                Arguments.of("argument set twice", "job \"x\" {\n  type = \"batch\"\n  type = \"service\"\n}\n",
                        "input.hcl:3,3-7: Attribute redefined; The argument \"type\" was already set at input.hcl:2,3-7. Each argument may be set only once."),
                Arguments.of("duplicate single block", "job \"x\" {\n  group \"g\" {\n    task \"t\" {\n      resources {}\n      resources {}\n    }\n  }\n}\n",
                        "input.hcl:5,7-16: Duplicate resources block; Only one resources block is allowed. Another was defined at input.hcl:4,7-16."),
                Arguments.of("quoted argument name", "job \"x\" {\n  \"type\" = \"batch\"\n}\n",
                        "input.hcl:2,3-9: Invalid argument name; Argument names must not be quoted."),
                Arguments.of("missing tuple comma", "job \"x\" {\n  datacenters = [\"a\" \"b\"]\n}\n",
                        "input.hcl:2,22-25: Missing item separator; Expected a comma to mark the beginning of the next item."),
                Arguments.of("unterminated string", "job \"x\" {\n  type = \"batch\n}\n",
                        "input.hcl:2,16-3,1: Invalid multi-line string; Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax."),
                Arguments.of("template argument misspelt", "job \"x\" {\n  group \"g\" {\n    task \"t\" {\n      driver = \"raw_exec\"\n      template {\n        data = \"x\"\n        destinaton = \"local/x\"\n      }\n    }\n  }\n}\n",
                        "input.hcl:7,9-19: Unsupported argument; An argument named \"destinaton\" is not expected here. Did you mean \"destination\"?"),
                Arguments.of("affinity refused", "job \"x\" {\n  affinity {\n    attribute = \"${node.class}\"\n    value = \"a\"\n  }\n}\n",
                        "input.hcl:2,3-11: Not supported by Berth; The \"affinity\" block is valid in Nomad, but Berth places on one node and has no use for it; Berth refuses the job rather than run it without it."),
                Arguments.of("a block inside a map block", "job \"x\" {\n  meta {\n    owner {}\n  }\n}\n",
                        "input.hcl:3,5-10: Unexpected \"owner\" block; Blocks are not allowed here."));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("broken")
    void refusedWithNomadsDiagnostic(String name, String hcl, String diagnostic) {
        assertThatThrownBy(() -> new JobspecParser().parse(hcl)).isInstanceOf(JobspecParser.JobspecException.class).hasMessage(diagnostic);
    }
}
