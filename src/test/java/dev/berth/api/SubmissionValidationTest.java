package dev.berth.api;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.config.BerthProperties;
import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 14, validation at the door: every structural and semantic problem of a submitted allocation is a 400 naming the
 * JSON path of the field, and nothing is stored (no record, no alloc dir). Each case was a 500 or an accepted allocation
 * whose runner then crashed, or is one of the classes of input the issue lists.
 */
@AgentIntegrationTest
class SubmissionValidationTest {

    @LocalServerPort
    int port;

    @Autowired
    BerthProperties props;

    final JsonMapper json = JsonMapper.builder().build();

    static String alloc(String id, String groups) {
        return """
                {"ID":"%s","Name":"v.g[0]","JobID":"v","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"g",
                 "Job":{"ID":"v","Name":"v","Type":"service","TaskGroups":%s}}""".formatted(id, groups);
    }

    static String group(String tasks) {
        return "[{\"Name\":\"g\",\"Count\":1,\"Tasks\":" + tasks + "}]";
    }

    static String raw(String name, String command, String extra) {
        return """
                [{"Name":"%s","Driver":"raw_exec","Config":{"command":%s,"args":["1"]},"Resources":{"CPU":20,"MemoryMB":16}%s}]"""
                .formatted(name, command, extra);
    }

    /** {@code [task]} → {@code [task,task]}. */
    static String twice(String oneTaskList) {
        String task = oneTaskList.substring(1, oneTaskList.length() - 1);
        return "[" + task + "," + task + "]";
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("null task group", "[null]", "Job.TaskGroups[0]"),
                Arguments.of("null task", group("[null]"), "Job.TaskGroups[0].Tasks[0]"),
                Arguments.of("NUL in command", group(raw("t", "\"/bin/sl\\u0000eep\"", "")), "Job.TaskGroups[0].Tasks[0].Config.command"),
                Arguments.of("NUL in an argument", group(raw("t", "\"/bin/sleep\"", "").replace("[\"1\"]", "[\"1\\u0000\"]")),
                        "Job.TaskGroups[0].Tasks[0].Config.args[0]"),
                Arguments.of("null argument", group(raw("t", "\"/bin/sleep\"", "").replace("[\"1\"]", "[null]")),
                        "Job.TaskGroups[0].Tasks[0].Config.args[0]"),
                Arguments.of("control character in a task name", group(raw("t\\u0007", "\"/bin/sleep\"", "")),
                        "Job.TaskGroups[0].Tasks[0].Name"),
                Arguments.of("path in a task name", group(raw("../t", "\"/bin/sleep\"", "")), "Job.TaskGroups[0].Tasks[0].Name"),
                Arguments.of("slash in a group name", "[{\"Name\":\"a/b\",\"Tasks\":" + raw("t", "\"/bin/sleep\"", "") + "}]",
                        "Job.TaskGroups[0].Name"),
                Arguments.of("NUL in an env value", group(raw("t", "\"/bin/sleep\"", ",\"Env\":{\"A\":\"x\\u0000\"}")),
                        "Job.TaskGroups[0].Tasks[0].Env.A"),
                Arguments.of("negative kill timeout", group(raw("t", "\"/bin/sleep\"", ",\"KillTimeout\":-1")),
                        "Job.TaskGroups[0].Tasks[0].KillTimeout"),
                Arguments.of("absurd restart delay", group(raw("t", "\"/bin/sleep\"",
                        ",\"RestartPolicy\":{\"Attempts\":2000000000,\"Interval\":9223372036854775807,\"Delay\":9223372036854775807,\"Mode\":\"fail\"}")),
                        "Job.TaskGroups[0].Tasks[0].RestartPolicy.Interval"),
                Arguments.of("exit code out of range", group(raw("t", "\"/bin/sleep\"", ",\"RestartPolicy\":{\"NoRestartExitCodes\":[256]}")),
                        "Job.TaskGroups[g].Tasks[t].RestartPolicy.NoRestartExitCodes"),
                Arguments.of("exit code in both exit rules", "[{\"Name\":\"g\",\"RestartPolicy\":{\"NoRestartExitCodes\":[3],"
                        + "\"RestartExitCodes\":[3]},\"Tasks\":" + raw("t", "\"/bin/sleep\"", "") + "}]",
                        "Job.TaskGroups[g].Tasks[t].RestartPolicy.RestartExitCodes"),
                Arguments.of("fractional exit code", group(raw("t", "\"/bin/sleep\"", ",\"RestartPolicy\":{\"RestartExitCodes\":[2.5]}")),
                        "Job.TaskGroups[0].Tasks[0].RestartPolicy.RestartExitCodes"),
                Arguments.of("exit code as text", group(raw("t", "\"/bin/sleep\"", ",\"RestartPolicy\":{\"RestartExitCodes\":[\"two\"]}")),
                        "Job.TaskGroups[0].Tasks[0].RestartPolicy.RestartExitCodes"),
                Arguments.of("unknown signal in an exit rule", group(raw("t", "\"/bin/sleep\"", ",\"RestartPolicy\":{\"RestartSignals\":[\"SIGWAT\"]}")),
                        "Job.TaskGroups[g].Tasks[t].RestartPolicy.RestartSignals"),
                Arguments.of("negative secrets size", group(raw("t", "\"/bin/sleep\"", "").replace("\"MemoryMB\":16", "\"MemoryMB\":16,\"SecretsMB\":-5")),
                        "Job.TaskGroups[0].Tasks[0].Resources.SecretsMB"),
                Arguments.of("absurd log size", group(raw("t", "\"/bin/sleep\"", ",\"LogConfig\":{\"MaxFileSizeMB\":999999999999}")),
                        "Job.TaskGroups[0].Tasks[0].LogConfig.MaxFileSizeMB"),
                Arguments.of("duplicate task names", group(twice(raw("t", "\"/bin/sleep\"", ""))), "Job.TaskGroups[g].Tasks[t].Name"),
                Arguments.of("unknown driver", group("[{\"Name\":\"t\",\"Driver\":\"warp\",\"Config\":{}}]"),
                        "Job.TaskGroups[g].Tasks[t].Driver"),
                Arguments.of("config that does not match the driver's schema",
                        group("[{\"Name\":\"t\",\"Driver\":\"raw_exec\",\"Config\":{\"command\":\"/bin/true\",\"nope\":1}}]"),
                        "Job.TaskGroups[g].Tasks[t].Config"),
                Arguments.of("wrongly typed config value",
                        group("[{\"Name\":\"t\",\"Driver\":\"raw_exec\",\"Config\":{\"command\":{\"a\":[1]}}}]"),
                        "Job.TaskGroups[g].Tasks[t].Config"),
                Arguments.of("null driver config value (was a runner crash)",
                        group("[{\"Name\":\"t\",\"Driver\":\"raw_exec\",\"Config\":{\"command\":\"/bin/true\",\"work_dir\":null}}]"),
                        "Job.TaskGroups[0].Tasks[0].Config.work_dir"),
                Arguments.of("null network", "[{\"Name\":\"g\",\"Networks\":[null],\"Tasks\":" + raw("t", "\"/bin/sleep\"", "") + "}]",
                        "Job.TaskGroups[0].Networks[0]"),
                Arguments.of("deep nesting in a driver config",
                        group("[{\"Name\":\"t\",\"Driver\":\"raw_exec\",\"Config\":{\"command\":\"/bin/true\",\"x\":" + "[".repeat(40) + "1"
                                + "]".repeat(40) + "}}]"), "Job.TaskGroups[0].Tasks[0].Config.x"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void refusedWith400NamingTheFieldAndNothingStored(String what, String groups, String field) throws Exception {
        String id = UUID.randomUUID().toString();
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/client/allocation/" + id, alloc(id, groups));
        assertThat(r.statusCode()).as("%s: %s", what, r.body()).isEqualTo(400);
        JsonNode problem = json.readTree(r.body());
        assertThat(problem.path("field").asString()).as(r.body()).startsWith(field);
        assertThat(Http.send(port, "GET", "/v1/allocation/" + id, null).statusCode()).isEqualTo(404);
        assertThat(Files.exists(props.allocDir().resolve(id))).isFalse();
    }
}
