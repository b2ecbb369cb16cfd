package dev.berth.alloc;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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

/** Over HTTP on a real agent: an update that removes a task, and an {@code AllTasks} restart. */
@AgentIntegrationTest
class LifecycleApiTest {

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

    private static String alloc(String id, long index, String tasks) {
        return """
                {"ID":"%s","Name":"life.app[0]","JobID":"life","AllocModifyIndex":%d,"DesiredStatus":"run","TaskGroup":"app",
                 "Job":{"ID":"life","Name":"life","Type":"service","TaskGroups":[{"Name":"app","Count":1,"Tasks":[%s]}]}}"""
                .formatted(id, index, tasks);
    }

    private static String task(String name, String config, String lifecycle) {
        return """
                {"Name":"%s","Driver":"mock_driver","Config":%s,"Resources":{"CPU":100,"MemoryMB":32}%s}"""
                .formatted(name, config, lifecycle == null ? "" : ",\"Lifecycle\":" + lifecycle);
    }

    private void put(String id, String body) throws Exception {
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/client/allocation/" + id, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        created.add(id);
    }

    private JsonNode states(String id) throws Exception {
        return json.readTree(Http.send(port, "GET", "/v1/allocation/" + id, null).body()).get("TaskStates");
    }

    private static List<String> types(JsonNode state) {
        List<String> out = new ArrayList<>();
        state.get("Events").forEach(e -> out.add(e.get("Type").asString()));
        return out;
    }

    @Test
    void anUpdateWithoutATaskKillsIt() throws Exception {
        String id = UUID.randomUUID().toString();
        String web = task("web", "{\"run_for\":\"1h\"}", null);
        put(id, alloc(id, 1, web + "," + task("old", "{\"run_for\":\"1h\"}", null)));
        await().atMost(Duration.ofSeconds(20)).until(() -> "running".equals(states(id).get("old").get("State").asString()));

        put(id, alloc(id, 2, web));

        await().atMost(Duration.ofSeconds(20)).until(() -> "dead".equals(states(id).get("old").get("State").asString()));
        JsonNode old = states(id).get("old");
        assertThat(types(old)).endsWith("Killing", "Terminated", "Killed");
        JsonNode killed = old.get("Events").get(old.get("Events").size() - 1);
        assertThat(killed.get("KillReason").asString()).isEqualTo("update missing task");
        assertThat(old.get("Failed").asBoolean()).isFalse();
        assertThat(states(id).get("web").get("State").asString()).isEqualTo("running");
        JsonNode alloc = json.readTree(Http.send(port, "GET", "/v1/allocation/" + id, null).body());
        assertThat(alloc.get("ClientStatus").asString()).isEqualTo("running");
    }

    @Test
    void allTasksRestartRerunsTheCompletedPrestartTask() throws Exception {
        String id = UUID.randomUUID().toString();
        put(id, alloc(id, 1, task("init", "{\"run_for\":\"10ms\"}", "{\"Hook\":\"prestart\",\"Sidecar\":false}") + ","
                + task("main", "{\"run_for\":\"1h\"}", null)));
        await().atMost(Duration.ofSeconds(20)).until(() -> "running".equals(states(id).get("main").get("State").asString()));

        HttpResponse<String> r = Http.send(port, "POST", "/v1/client/allocation/" + id + "/restart", "{\"AllTasks\":true}");

        assertThat(r.statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(20)).until(() -> types(states(id).get("main")).stream().filter("Started"::equals).count() == 2);
        JsonNode init = states(id).get("init");
        assertThat(types(init)).containsSubsequence("Terminated", "Restart Signaled", "Restarting", "Started", "Terminated");
        JsonNode signaled = init.get("Events").get(types(init).indexOf("Restart Signaled"));
        assertThat(signaled.get("RestartReason").asString()).isEqualTo("User requested all tasks to restart");
        assertThat(signaled.get("DisplayMessage").asString()).isEqualTo("User requested all tasks to restart");
    }

    @Test
    void anAddedTaskIsAdmittedLikeANewOne() throws Exception {
        String id = UUID.randomUUID().toString();
        String web = task("web", "{\"run_for\":\"1h\"}", null);
        put(id, alloc(id, 1, web));
        String huge = """
                {"Name":"huge","Driver":"mock_driver","Config":{"run_for":"1h"},"Resources":{"CPU":100,"MemoryMB":10000000}}""";
        HttpResponse<String> tooBig = Http.send(port, "PUT", "/v1/client/allocation/" + id, alloc(id, 2, web + "," + huge));
        assertThat(tooBig.statusCode()).isEqualTo(409);
        assertThat(tooBig.body()).contains("Resources exhausted on node: memory");
        String withPorts = """
                {"Name":"net","Driver":"mock_driver","Config":{"run_for":"1h"},
                 "Resources":{"CPU":100,"MemoryMB":32,"Networks":[{"DynamicPorts":[{"Label":"http"}]}]}}""";
        HttpResponse<String> ports = Http.send(port, "PUT", "/v1/client/allocation/" + id, alloc(id, 3, web + "," + withPorts));
        assertThat(ports.statusCode()).isEqualTo(400);
        assertThat(ports.body()).contains("A task added by an update cannot have its own networks");
        // nothing changed
        JsonNode a = json.readTree(Http.send(port, "GET", "/v1/allocation/" + id, null).body());
        assertThat(a.get("AllocModifyIndex").asLong()).isEqualTo(1);
        assertThat(states(id).properties()).extracting(java.util.Map.Entry::getKey).containsExactly("web");
    }
}
