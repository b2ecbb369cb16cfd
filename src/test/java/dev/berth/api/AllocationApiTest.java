package dev.berth.api;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The allocation API end to end on a real agent with the mock_driver: shapes, 400s, 409s, latest wins, lifecycle calls. */
@AgentIntegrationTest
class AllocationApiTest {

    @LocalServerPort
    int port;

    final JsonMapper json = JsonMapper.builder().build();
    final List<String> created = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (String id : created) {
            send("DELETE", "/v1/client/allocation/" + id, null);
        }
    }

    HttpResponse<String> send(String method, String path, String body) throws Exception {
        return Http.send(port, method, path, body);
    }

    JsonNode node(HttpResponse<String> r) {
        return json.readTree(r.body());
    }

    static String alloc(String id, long index, String desired, String taskJson, String groupExtra) {
        return """
                {"ID":"%s","Name":"web.app[0]","JobID":"web","AllocModifyIndex":%d,"DesiredStatus":"%s","TaskGroup":"app",
                 "Job":{"ID":"web","Name":"web","Type":"service","TaskGroups":[{"Name":"app","Count":1,%s
                   "Tasks":[%s]}]}}""".formatted(id, index, desired, groupExtra, taskJson);
    }

    static String mockTask(String name, String config) {
        return """
                {"Name":"%s","Driver":"mock_driver","Config":%s,"Resources":{"CPU":100,"MemoryMB":32}}""".formatted(name, config);
    }

    String put(String body, String id) throws Exception {
        HttpResponse<String> r = send("PUT", "/v1/client/allocation/" + id, body);
        if (r.statusCode() == 200) {
            created.add(id);
        }
        return r.statusCode() + " " + r.body();
    }

    @Test
    void submitRunAndReadBackInNomadShape() throws Exception {
        String id = UUID.randomUUID().toString();
        HttpResponse<String> r = send("PUT", "/v1/client/allocation/" + id,
                alloc(id, 5, "run", mockTask("t", "{\"run_for\":\"1h\"}"), "\"Networks\":[{\"DynamicPorts\":[{\"Label\":\"http\"}]}],"));
        created.add(id);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("X-Berth-Submit")).contains("created");
        await().atMost(Duration.ofSeconds(20)).until(() -> node(send("GET", "/v1/allocation/" + id, null)).path("ClientStatus").asString()
                .equals("running"));
        JsonNode a = node(send("GET", "/v1/allocation/" + id, null));
        assertThat(a.path("ID").asString()).isEqualTo(id);
        assertThat(a.path("ClientDescription").asString()).isEqualTo("Tasks are running");
        assertThat(a.path("AllocModifyIndex").asLong()).isEqualTo(5);
        assertThat(a.path("Namespace").asString()).isEqualTo("default");
        assertThat(a.has("PreviousAllocation")).as("zero fields are omitted").isFalse();
        JsonNode t = a.path("TaskStates").path("t");
        assertThat(t.path("State").asString()).isEqualTo("running");
        assertThat(t.path("FinishedAt").asString()).isEqualTo("0001-01-01T00:00:00Z");
        List<String> types = new ArrayList<>();
        t.path("Events").forEach(e -> types.add(e.path("Type").asString()));
        assertThat(types).containsExactly("Received", "Task Setup", "Started");
        JsonNode started = t.path("Events").get(2);
        assertThat(started.path("Time").isIntegralNumber()).isTrue();
        assertThat(started.path("DisplayMessage").asString()).isEqualTo("Task started by client");
        assertThat(started.has("ExitCode")).isTrue();
        // defaults applied: restart policy for service, kill timeout 5s
        JsonNode task = a.path("Job").path("TaskGroups").get(0).path("Tasks").get(0);
        assertThat(task.path("KillTimeout").asLong()).isEqualTo(5_000_000_000L);
        assertThat(task.path("RestartPolicy").path("Attempts").asInt()).isEqualTo(2);
        int dyn = a.path("AllocatedResources").path("Shared").path("Ports").get(0).path("Value").asInt();
        assertThat(dyn).isBetween(20000, 32000);
        assertThat(node(send("GET", "/v1/client/allocations", null)).findValuesAsString("ID")).contains(id);
    }

    @Test
    void validationErrorsAre400WithTheFieldAndStoreNothing() throws Exception {
        String id = UUID.randomUUID().toString();
        String ok = mockTask("t", "{}");
        assertThat(put("{\"ID\": ", id)).startsWith("400").contains("Failed to decode body");
        assertThat(put(alloc("other", 1, "run", ok, ""), id)).startsWith("400").contains("does not match the path ID");
        assertThat(put(alloc(id, 1, "run", ok, "").replace("\"TaskGroup\":\"app\"", "\"TaskGroup\":\"nope\""), id))
                .startsWith("400").contains("\"field\":\"TaskGroup\"");
        assertThat(put(alloc(id, 1, "run", ok.replace("mock_driver", "warp_drive"), ""), id)).startsWith("400")
                .contains("Unknown driver").contains("Tasks[t].Driver");
        assertThat(put(alloc(id, 1, "run", ok, "\"RestartPolicy\":{\"Attempts\":1,\"Interval\":1000000000,\"Delay\":0,\"Mode\":\"fail\"},"), id))
                .startsWith("400").contains("Interval can not be less than 5s").contains("RestartPolicy");
        assertThat(put(alloc(id, 1, "run", mockTask("t", "{\"bogus\":1}"), ""), id)).startsWith("400")
                .contains("Tasks[t].Config");
        assertThat(put(alloc(id, 1, "run", ok, "\"Count\":\"x\","), id)).startsWith("400");
        // A user saw "field":"dev.berth.alloc.spec.AllocationSpec[\"Job\"]->…" for an out-of-range CPU.
        assertThat(put(alloc(id, 1, "run", ok.replace("\"CPU\":100", "\"CPU\":99999999999999"), ""), id)).startsWith("400")
                .contains("\"field\":\"Job.TaskGroups[0].Tasks[0].Resources.CPU\"");
        assertThat(send("GET", "/v1/allocation/" + id, null).statusCode()).isEqualTo(404);
    }

    @Test
    void admissionRefusesWhatDoesNotFit() throws Exception {
        String id = UUID.randomUUID().toString();
        String huge = "{\"Name\":\"t\",\"Driver\":\"mock_driver\",\"Config\":{},\"Resources\":{\"CPU\":100,\"MemoryMB\":10000000}}";
        assertThat(put(alloc(id, 1, "run", huge, ""), id)).startsWith("409").contains("memory").contains("\"resource\":\"memory\"");
        String cpuHog = "{\"Name\":\"t\",\"Driver\":\"mock_driver\",\"Config\":{},\"Resources\":{\"CPU\":100000000,\"MemoryMB\":32}}";
        assertThat(put(alloc(id, 1, "run", cpuHog, ""), id)).startsWith("409").contains("Resources exhausted on node: cpu");
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int p = taken.getLocalPort();
            assertThat(put(alloc(id, 1, "run", mockTask("t", "{}"), "\"Networks\":[{\"ReservedPorts\":[{\"Label\":\"db\",\"Value\":" + p + "}]}],"), id))
                    .startsWith("409").contains("reserved port collision db=" + p);
        }
        assertThat(send("GET", "/v1/allocation/" + id, null).statusCode()).isEqualTo(404);
    }

    @Test
    void latestWinsStopAndDestroy() throws Exception {
        String id = UUID.randomUUID().toString();
        assertThat(put(alloc(id, 5, "run", mockTask("t", "{\"run_for\":\"1h\"}"), ""), id)).startsWith("200");
        await().atMost(Duration.ofSeconds(20)).until(() -> node(send("GET", "/v1/allocation/" + id, null)).path("ClientStatus").asString()
                .equals("running"));
        HttpResponse<String> stale = send("PUT", "/v1/client/allocation/" + id, alloc(id, 5, "stop", mockTask("t", "{\"run_for\":\"1h\"}"), ""));
        assertThat(stale.statusCode()).isEqualTo(200);
        assertThat(stale.headers().firstValue("X-Berth-Submit")).contains("stale");
        assertThat(node(stale).path("DesiredStatus").asString()).isEqualTo("run");
        HttpResponse<String> stop = send("PUT", "/v1/client/allocation/" + id, alloc(id, 6, "stop", mockTask("t", "{\"run_for\":\"1h\"}"), ""));
        assertThat(stop.headers().firstValue("X-Berth-Submit")).contains("updated");
        await().atMost(Duration.ofSeconds(30)).until(() -> node(send("GET", "/v1/allocation/" + id, null)).path("ClientStatus").asString()
                .equals("complete"));
        assertThat(send("DELETE", "/v1/client/allocation/" + id, null).statusCode()).isEqualTo(200);
        assertThat(send("GET", "/v1/allocation/" + id, null).statusCode()).isEqualTo(404);
        assertThat(send("DELETE", "/v1/client/allocation/" + id, null).statusCode()).as("destroy is idempotent").isEqualTo(200);
        assertThat(send("DELETE", "/v1/client/allocation/never-existed", null).statusCode()).isEqualTo(404);
        assertThat(put(alloc(id, 7, "run", mockTask("t", "{}"), ""), id)).startsWith("409");
    }

    @Test
    void restartAndSignal() throws Exception {
        String id = UUID.randomUUID().toString();
        assertThat(put(alloc(id, 1, "run", mockTask("t", "{\"run_for\":\"1h\"}"), ""), id)).startsWith("200");
        await().atMost(Duration.ofSeconds(20)).until(() -> node(send("GET", "/v1/allocation/" + id, null)).path("ClientStatus").asString()
                .equals("running"));
        HttpResponse<String> sig = send("POST", "/v1/client/allocation/" + id + "/signal", "{\"Task\":\"t\",\"Signal\":\"SIGUSR1\"}");
        assertThat(sig.statusCode()).isEqualTo(200);
        assertThat(sig.body()).isEqualTo("{\"Index\":0}");
        assertThat(send("POST", "/v1/client/allocation/" + id + "/signal", null).body()).contains("Request body is empty");
        assertThat(send("POST", "/v1/client/allocation/" + id + "/signal", "{\"Task\":\"zz\",\"Signal\":\"SIGUSR1\"}").statusCode()).isEqualTo(404);
        assertThat(send("POST", "/v1/client/allocation/" + id + "/restart", "{\"TaskName\":\"t\",\"AllTasks\":true}").body())
                .contains("task name cannot be set when restarting all tasks");
        HttpResponse<String> restart = send("POST", "/v1/client/allocation/" + id + "/restart", "{\"TaskName\":\"t\"}");
        assertThat(restart.statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            List<String> types = new ArrayList<>();
            node(send("GET", "/v1/allocation/" + id, null)).path("TaskStates").path("t").path("Events").forEach(e -> types.add(e.path("Type").asString()));
            return types.containsAll(List.of("Signaling", "Restart Signaled", "Restarting")) && types.getLast().equals("Started");
        });
        assertThat(send("POST", "/v1/client/allocation/nope/restart", null).statusCode()).isEqualTo(404);
        assertThat(Map.of()).isEmpty();
    }

    /**
     * An unknown signal name was answered 400 but had already left a {@code Signaling} event on the task; with no running
     * task it was even a 200. Bad input must change nothing and always be refused.
     */
    @Test
    void anUnknownSignalIsRefusedBeforeAnythingIsRecorded() throws Exception {
        String id = UUID.randomUUID().toString();
        assertThat(put(alloc(id, 1, "run", mockTask("t", "{\"run_for\":\"1h\"}"), ""), id)).startsWith("200");
        await().atMost(Duration.ofSeconds(20)).until(() -> node(send("GET", "/v1/allocation/" + id, null)).path("ClientStatus").asString()
                .equals("running"));
        HttpResponse<String> one = send("POST", "/v1/client/allocation/" + id + "/signal", "{\"Task\":\"t\",\"Signal\":\"SIGFOO\"}");
        assertThat(one.statusCode()).isEqualTo(400);
        assertThat(one.body()).contains("unknown signal \\\"SIGFOO\\\"");
        assertThat(send("POST", "/v1/client/allocation/" + id + "/signal", "{\"Signal\":\"SIGFOO\"}").statusCode()).isEqualTo(400);
        List<String> types = new ArrayList<>();
        node(send("GET", "/v1/allocation/" + id, null)).path("TaskStates").path("t").path("Events").forEach(e -> types.add(e.path("Type").asString()));
        assertThat(types).doesNotContain("Signaling");

        assertThat(put(alloc(id, 2, "stop", mockTask("t", "{\"run_for\":\"1h\"}"), ""), id)).startsWith("200");
        await().atMost(Duration.ofSeconds(20)).until(() -> node(send("GET", "/v1/allocation/" + id, null)).path("ClientStatus").asString()
                .equals("complete"));
        assertThat(send("POST", "/v1/client/allocation/" + id + "/signal", "{\"Signal\":\"SIGFOO\"}").statusCode())
                .as("no running task is no excuse for accepting a bad name").isEqualTo(400);
    }

    /**
     * A user running the docs' {@code curl -X POST …/restart -d '{"TaskName":"server"}'} got 415 (curl sends
     * application/x-www-form-urlencoded); Nomad decodes a request body as JSON whatever its Content-Type.
     */
    @Test
    void bodiesWithoutAJsonContentTypeAreReadAsJson() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String id = UUID.randomUUID().toString();
        HttpRequest submit = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/client/allocation/" + id))
                .PUT(HttpRequest.BodyPublishers.ofString(alloc(id, 1, "run", mockTask("t", "{\"run_for\":\"1h\"}"), ""))).build();
        HttpResponse<String> r = http.send(submit, HttpResponse.BodyHandlers.ofString());
        created.add(id);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(20)).until(() -> node(send("GET", "/v1/allocation/" + id, null)).path("ClientStatus").asString()
                .equals("running"));
        HttpRequest signal = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/client/allocation/" + id + "/signal"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("{\"Task\":\"t\",\"Signal\":\"SIGUSR1\"}")).build();
        HttpResponse<String> s = http.send(signal, HttpResponse.BodyHandlers.ofString());
        assertThat(s.statusCode()).as(s.body()).isEqualTo(200);
        HttpRequest restart = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/client/allocation/" + id + "/restart"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"TaskName\":\"nope\"}")).build();
        HttpResponse<String> rs = http.send(restart, HttpResponse.BodyHandlers.ofString());
        assertThat(rs.statusCode()).as("the body was read: an unknown task is 404").isEqualTo(404);
    }
}
