package dev.berth.api;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * JSON values of the wrong type are refused as Nomad (Go's decoder) refuses them: 400, a problem naming the field, and
 * nothing stored or changed. Jackson used to coerce them ({@code "TaskName":5} became the task "5" and a 404,
 * {@code "Env":{"A":5}} was stored).
 */
@AgentIntegrationTest
class StrictRequestBodyTest {

    @LocalServerPort
    int port;

    final JsonMapper json = JsonMapper.builder().build();
    final List<String> created = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (String id : created) {
            Http.send(port, "DELETE", "/v1/client/allocation/" + id, null);
        }
    }

    static String alloc(String id, String allocExtra, String groupExtra, String taskExtra) {
        return """
                {"ID":"%s","Name":"web.app[0]","JobID":"web","AllocModifyIndex":1,%s
                 "Job":{"ID":"web","Name":"web","Type":"service","TaskGroups":[{"Name":"app",%s
                   "Tasks":[{"Name":"t","Driver":"mock_driver","Config":{"run_for":"1h"},%s"Resources":{"CPU":100,"MemoryMB":32}}]}]}}"""
                .formatted(id, allocExtra.contains("\"TaskGroup\"") ? allocExtra : allocExtra + "\"TaskGroup\":\"app\",", groupExtra,
                        taskExtra);
    }

    JsonNode problem(HttpResponse<String> r) {
        assertThat(r.headers().firstValue("Content-Type")).contains("application/problem+json");
        return json.readTree(r.body());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            TaskGroup number        | "TaskGroup":5,                      | ''                         | ''                          | TaskGroup                              | number into field TaskGroup of type string
            DesiredStatus bool      | "DesiredStatus":true,               | ''                         | ''                          | DesiredStatus                          | bool into field DesiredStatus of type string
            AllocModifyIndex string | "AllocModifyIndex":"2",             | ''                         | ''                          | AllocModifyIndex                       | string into field AllocModifyIndex of type int64
            Count float             | ''                                  | "Count":1.5,               | ''                          | Job.TaskGroups[0].Count                | number into field Job.TaskGroups[0].Count of type int
            Count whole float       | ''                                  | "Count":1.0,               | ''                          | Job.TaskGroups[0].Count                | number into field Job.TaskGroups[0].Count of type int
            Count empty string      | ''                                  | "Count":"",                | ''                          | Job.TaskGroups[0].Count                | string into field Job.TaskGroups[0].Count of type int
            Group Meta number       | ''                                  | "Meta":{"rack":12},        | ''                          | Job.TaskGroups[0].Meta.rack            | number into field Job.TaskGroups[0].Meta.rack of type string
            Env number              | ''                                  | ''                         | "Env":{"A":5},              | Job.TaskGroups[0].Tasks[0].Env.A       | number into field Job.TaskGroups[0].Tasks[0].Env.A of type string
            Env bool                | ''                                  | ''                         | "Env":{"A":false},          | Job.TaskGroups[0].Tasks[0].Env.A       | bool into field Job.TaskGroups[0].Tasks[0].Env.A of type string
            KillTimeout string      | ''                                  | ''                         | "KillTimeout":"5000000000", | Job.TaskGroups[0].Tasks[0].KillTimeout | string into field Job.TaskGroups[0].Tasks[0].KillTimeout of type int64
            Leader number           | ''                                  | ''                         | "Leader":1,                 | Job.TaskGroups[0].Tasks[0].Leader      | number into field Job.TaskGroups[0].Tasks[0].Leader of type bool
            Leader string           | ''                                  | ''                         | "Leader":"true",            | Job.TaskGroups[0].Tasks[0].Leader      | string into field Job.TaskGroups[0].Tasks[0].Leader of type bool
            Driver number           | ''                                  | ''                         | "Driver":7,                 | Job.TaskGroups[0].Tasks[0].Driver      | number into field Job.TaskGroups[0].Tasks[0].Driver of type string
            """)
    void aWrongScalarTypeInAnAllocationIs400NamingTheFieldAndStoresNothing(String name, String allocExtra, String groupExtra,
            String taskExtra, String field, String detail) throws Exception {
        String id = UUID.randomUUID().toString();
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/client/allocation/" + id, alloc(id, allocExtra, groupExtra, taskExtra));
        if (r.statusCode() == 200) {
            created.add(id);
        }
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        JsonNode p = problem(r);
        assertThat(p.path("field").asString()).isEqualTo(field);
        assertThat(p.path("detail").asString()).isEqualTo("Failed to decode body: json: cannot unmarshal " + detail)
                .doesNotContain("java.").doesNotContain("Jackson");
        assertThat(Http.get(port, "/v1/allocation/" + id).statusCode()).as("nothing stored").isEqualTo(404);
    }

    @Test
    void theRightTypesStillWork() throws Exception {
        String id = UUID.randomUUID().toString();
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/client/allocation/" + id,
                alloc(id, "\"DesiredStatus\":\"run\",", "\"Count\":1,\"Meta\":{\"rack\":\"12\"},",
                        "\"Env\":{\"A\":\"5\"},\"KillTimeout\":2000000000,\"Leader\":true,\"Meta\":null,"));
        created.add(id);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode task = json.readTree(r.body()).path("Job").path("TaskGroups").get(0).path("Tasks").get(0);
        assertThat(task.path("Env").path("A").asString()).isEqualTo("5");
        assertThat(task.path("KillTimeout").asLong()).isEqualTo(2_000_000_000L);
    }

    /** Go leaves an absent number at zero; Jackson 3 refused an absent {@code int} ({@code AllocatedPort.To}). */
    @Test
    void anAbsentNumberIsZeroAsInGo() throws Exception {
        String id = UUID.randomUUID().toString();
        String body = alloc(id, "", "", "").replaceFirst("\\}$",
                ",\"AllocatedResources\":{\"Shared\":{\"Ports\":[{\"Label\":\"http\",\"Value\":0,\"HostIP\":\"127.0.0.1\"}]}}}");
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/client/allocation/" + id, body);
        created.add(id);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    @Test
    void aWrongTypeInRestartOrSignalIs400AndRestartsNothing() throws Exception {
        String id = UUID.randomUUID().toString();
        assertThat(Http.send(port, "PUT", "/v1/client/allocation/" + id, alloc(id, "", "", "")).statusCode()).isEqualTo(200);
        created.add(id);
        await().atMost(Duration.ofSeconds(20)).until(() -> json.readTree(Http.get(port, "/v1/allocation/" + id).body())
                .path("ClientStatus").asString().equals("running"));
        String eventsBefore = json.readTree(Http.get(port, "/v1/allocation/" + id).body()).path("TaskStates").path("t").path("Events")
                .toString();

        HttpResponse<String> restart = Http.send(port, "POST", "/v1/client/allocation/" + id + "/restart", "{\"TaskName\":5}");
        assertThat(restart.statusCode()).as(restart.body()).isEqualTo(400);
        assertThat(problem(restart).path("field").asString()).isEqualTo("TaskName");
        assertThat(problem(restart).path("detail").asString())
                .isEqualTo("Failed to decode body: json: cannot unmarshal number into field TaskName of type string");

        HttpResponse<String> all = Http.send(port, "PUT", "/v1/client/allocation/" + id + "/restart", "{\"AllTasks\":\"true\"}");
        assertThat(all.statusCode()).as(all.body()).isEqualTo(400);
        assertThat(problem(all).path("field").asString()).isEqualTo("AllTasks");

        HttpResponse<String> signal = Http.send(port, "POST", "/v1/client/allocation/" + id + "/signal",
                "{\"Task\":\"t\",\"Signal\":9}");
        assertThat(signal.statusCode()).as(signal.body()).isEqualTo(400);
        assertThat(problem(signal).path("field").asString()).isEqualTo("Signal");

        assertThat(json.readTree(Http.get(port, "/v1/allocation/" + id).body()).path("TaskStates").path("t").path("Events").toString())
                .as("no restart or signal was recorded").isEqualTo(eventsBefore);
    }
}
