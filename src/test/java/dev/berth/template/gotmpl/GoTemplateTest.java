package dev.berth.template.gotmpl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Go's documented {@code text/template} behaviour, as a table: template, expected output (or error text). */
class GoTemplateTest {

    private static final Map<String, Object> DATA = data();

    private static Map<String, Object> data() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("Name", "web");
        d.put("Count", 3L);
        d.put("Ratio", 2.5);
        d.put("Zero", 0L);
        d.put("Empty", "");
        d.put("True", true);
        d.put("False", false);
        d.put("Nil", null);
        d.put("List", List.of("a", "b", "c"));
        d.put("None", List.of());
        d.put("Map", Map.of("z", 26L, "a", 1L, "m", 13L));
        d.put("Nested", Map.of("Inner", Map.of("Value", "deep")));
        d.put("Ports", List.of(Map.of("Label", "http", "Value", 8080L), Map.of("Label", "db", "Value", 5432L)));
        return d;
    }

    static Stream<Arguments> renders() {
        return Stream.of(
                Arguments.of("plain text", "plain text"),
                Arguments.of("{{.}}", "map[Count:3 Empty: False:false List:[a b c] Map:map[a:1 m:13 z:26] Name:web "
                        + "Nested:map[Inner:map[Value:deep]] Nil:<nil> None:[] Ports:[map[Label:http Value:8080] "
                        + "map[Label:db Value:5432]] Ratio:2.5 True:true Zero:0]"),
                Arguments.of("{{.Name}}", "web"),
                Arguments.of("{{.Nested.Inner.Value}}", "deep"),
                Arguments.of("{{.Missing}}", "<no value>"),
                Arguments.of("{{.Nil}}", "<nil>"),
                Arguments.of("{{.Ratio}} {{.Count}}", "2.5 3"),
                Arguments.of("{{\"quoted\\t\"}}|{{`raw\\t`}}", "quoted\t|raw\\t"),
                Arguments.of("{{0x1F}} {{1_000}} {{'a'}} {{-2}} {{1e3}} {{.5}}", "31 1000 97 -2 1000 0.5"),
                Arguments.of("{{.Name | printf \"%s-%d\" | printf \"%s!\" 1}}", "%!s(int=1)!%!(EXTRA string=web-%!d(MISSING))"),
                Arguments.of("{{.Count | printf \"%d items\"}}", "3 items"),
                Arguments.of("{{printf \"%q %v %5s|%-4d|%.2f %t %x\" .Name .List \"ab\" 7 3.14159 true 255}}",
                        "\"web\" [a b c]    ab|7   |3.14 true ff"),
                Arguments.of("{{printf \"%s\" 1 2}}", "%!s(int=1)%!(EXTRA int=2)"),
                Arguments.of("{{print 1 2 \"a\" 3 \"b\" \"c\"}}", "1 2a3bc"),
                Arguments.of("{{println 1 \"a\"}}", "1 a\n"),
                Arguments.of("{{if .True}}yes{{end}}", "yes"),
                Arguments.of("{{if .Zero}}yes{{else}}no{{end}}", "no"),
                Arguments.of("{{if .Empty}}a{{else if .None}}b{{else if .List}}c{{else}}d{{end}}", "c"),
                Arguments.of("{{if .Missing}}a{{else}}b{{end}}", "b"),
                Arguments.of("{{range .List}}[{{.}}]{{end}}", "[a][b][c]"),
                Arguments.of("{{range $i, $v := .List}}{{$i}}={{$v}} {{end}}", "0=a 1=b 2=c "),
                Arguments.of("{{range $k, $v := .Map}}{{$k}}:{{$v}},{{end}}", "a:1,m:13,z:26,"),
                Arguments.of("{{range .Map}}{{.}} {{end}}", "1 13 26 "),
                Arguments.of("{{range .None}}x{{else}}empty{{end}}", "empty"),
                Arguments.of("{{range .Missing}}x{{else}}none{{end}}", "none"),
                Arguments.of("{{range 3}}{{.}}{{end}}", "012"),
                Arguments.of("{{range .List}}{{if eq . \"b\"}}{{break}}{{end}}{{.}}{{end}}", "a"),
                Arguments.of("{{range .List}}{{if eq . \"b\"}}{{continue}}{{end}}{{.}}{{end}}", "ac"),
                Arguments.of("{{range .Ports}}{{.Label}}={{.Value}};{{end}}", "http=8080;db=5432;"),
                Arguments.of("{{range $p := .Ports}}{{$.Name}}/{{$p.Label}} {{end}}", "web/http web/db "),
                Arguments.of("{{with .Nested.Inner}}{{.Value}}{{end}}", "deep"),
                Arguments.of("{{with .Empty}}x{{else}}empty{{end}}", "empty"),
                Arguments.of("{{with .Empty}}x{{else with .Name}}{{.}}{{end}}", "web"),
                Arguments.of("{{with $x := .Name}}{{$x}}{{.}}{{end}}", "webweb"),
                Arguments.of("{{$x := 1}}{{$x}}{{$x = 2}}{{$x}}", "12"),
                Arguments.of("{{$x := 1}}{{if true}}{{$x = 2}}{{$y := 9}}{{$y}}{{end}}{{$x}}", "92"),
                Arguments.of("{{$n := 0}}{{range .List}}{{$n = print $n .}}{{end}}{{$n}}", "0abc"),
                Arguments.of("{{define \"T\"}}<{{.}}>{{end}}{{template \"T\" .Name}}{{template \"T\"}}", "<web><<nil>>"),
                Arguments.of("{{block \"B\" .Count}}[{{.}}]{{end}}", "[3]"),
                Arguments.of("{{define \"R\"}}{{if gt . 0}}{{.}}{{end}}{{end}}{{template \"R\" 2}}", "2"),
                Arguments.of("a  {{- .Name -}}  \n b", "awebb"),
                Arguments.of("a {{- /* gone */ -}} b", "ab"),
                Arguments.of("a{{/* a comment */}}b", "ab"),
                Arguments.of("{{-3}}", "-3"),
                Arguments.of("{{and 1 0 2}} {{and 1 2}} {{or 0 \"\" 3}} {{or 0 \"\"}} {{not 0}}", "0 2 3  true"),
                Arguments.of("{{and .False .Missing.X}}", "false"),
                Arguments.of("{{len .List}} {{len .Map}} {{len .Name}} {{len \"é\"}}", "3 3 3 2"),
                Arguments.of("{{index .List 1}} {{index .Map \"m\"}} {{index .Ports 1 \"Label\"}} {{index .Map \"q\"}}",
                        "b 13 db <nil>"),
                Arguments.of("{{slice .Name 1}} {{slice .List 1 2}}", "eb [b]"),
                Arguments.of("{{eq .Count 3}} {{eq .Name \"x\" \"web\"}} {{ne 1 2}} {{lt 1 2}} {{le 2 2}} {{gt \"b\" \"a\"}} "
                        + "{{ge 1.5 2.5}}", "true true true true true true false"),
                Arguments.of("{{eq .Nil nil}}", "true"),
                Arguments.of("{{(index .Ports 0).Label}}", "http"),
                Arguments.of("{{len (print .Name .Name)}}", "6"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void renders(String template, String expected) throws TemplateException {
        assertThat(GoTemplate.parse("t", template, GoTemplate.Options.DEFAULT).execute(DATA)).isEqualTo(expected);
    }

    static Stream<Arguments> refusedAtParse() {
        return Stream.of(
                Arguments.of("{{.Name", "template: t:1: unclosed action"),
                Arguments.of("{{if .True}}x", "template: t:1: unexpected EOF"),
                Arguments.of("x{{end}}", "template: t:1: unexpected {{end}}"),
                Arguments.of("{{else}}", "template: t:1: unexpected {{else}}"),
                Arguments.of("{{nope 1}}", "template: t:1: function \"nope\" not defined"),
                Arguments.of("\n{{$y}}", "template: t:2: undefined variable \"$y\""),
                Arguments.of("{{if true}}{{$z := 1}}{{end}}{{$z}}", "template: t:1: undefined variable \"$z\""),
                Arguments.of("{{break}}", "template: t:1: {{break}} outside {{range}}"),
                Arguments.of("{{if}}x{{end}}", "template: t:1: missing value for if"),
                Arguments.of("{{\"abc}}", "template: t:1: unterminated quoted string"),
                Arguments.of("{{ # }}", "template: t:1: unrecognized character in action: '#'"),
                Arguments.of("{{/* open }}", "template: t:1: unclosed comment"),
                Arguments.of("{{3 | }}", "template: t:1: missing command after |"),
                Arguments.of("{{(1}}", "template: t:1: unexpected \"}}\" in parenthesized pipeline"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void refusedAtParse(String template, String error) {
        assertThatThrownBy(() -> GoTemplate.parse("t", template, GoTemplate.Options.DEFAULT))
                .isInstanceOf(TemplateException.class).hasMessage(error);
    }

    static Stream<Arguments> failsToExecute() {
        return Stream.of(
                Arguments.of("{{.Name.First}}", "template: t:1: executing \"t\" at <.Name.First>: can't evaluate field First in type string"),
                Arguments.of("{{.Missing.X}}", "template: t:1: executing \"t\" at <.Missing.X>: nil pointer evaluating interface {}.X"),
                Arguments.of("{{index .List 5}}", "template: t:1: executing \"t\" at <index>: error calling index: index out of range: 5"),
                Arguments.of("{{len 3}}", "template: t:1: executing \"t\" at <len>: error calling len: len of type int"),
                Arguments.of("{{not 1 2}}", "template: t:1: executing \"t\" at <not>: wrong number of args for not: want 1 got 2"),
                Arguments.of("{{eq 1 \"a\"}}", "template: t:1: executing \"t\" at <eq>: error calling eq: incompatible types for comparison"),
                Arguments.of("{{lt true false}}", "template: t:1: executing \"t\" at <lt>: error calling lt: invalid type for comparison"),
                Arguments.of("{{template \"none\"}}", "template: t:1: executing \"t\" at <{{template \"none\"}}>: template \"none\" not defined"),
                Arguments.of("{{range .Name}}{{end}}", "template: t:1: executing \"t\" at <range>: range can't iterate over web"),
                Arguments.of("\n\n{{.Name 1}}", "template: t:3: executing \"t\" at <.Name>: can't give argument to non-function .Name"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void failsToExecute(String template, String error) {
        assertThatThrownBy(() -> GoTemplate.parse("t", template, GoTemplate.Options.DEFAULT).execute(DATA))
                .isInstanceOf(TemplateException.class).hasMessage(error);
    }

    @org.junit.jupiter.api.Test
    void missingKeyErrorRefusesAMissingKey() {
        GoTemplate.Options strict = new GoTemplate.Options("{{", "}}", Map.of(), true);
        assertThatThrownBy(() -> GoTemplate.parse("t", "{{.Nope}}", strict).execute(DATA))
                .hasMessage("template: t:1: executing \"t\" at <.Nope>: map has no entry for key \"Nope\"");
    }

    @org.junit.jupiter.api.Test
    void customDelimitersLeaveTheDefaultOnesAsText() throws TemplateException {
        GoTemplate.Options delims = new GoTemplate.Options("[[", "]]", Map.of(), false);
        assertThat(GoTemplate.parse("t", "{{.Name}} [[.Name]] [[- \" x\" -]] !", delims).execute(DATA)).isEqualTo("{{.Name}} web x!");
    }

    @org.junit.jupiter.api.Test
    void callerFunctionsAreCalledWithThePipedValueLast() throws TemplateException {
        Map<String, TemplateFunction> fns = Map.of("join2", TemplateFunction.fixed(2, a -> a.get(0) + "+" + a.get(1)),
                "fail", a -> {
                    throw new IllegalStateException("boom");
                });
        GoTemplate.Options opts = new GoTemplate.Options("{{", "}}", fns, false);
        assertThat(GoTemplate.parse("t", "{{.Name | join2 \"x\"}}", opts).execute(DATA)).isEqualTo("x+web");
        assertThatThrownBy(() -> GoTemplate.parse("t", "{{fail}}", opts).execute(DATA))
                .hasMessage("template: t:1: executing \"t\" at <fail>: error calling fail: boom");
    }
}
