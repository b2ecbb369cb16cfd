package dev.berth.service;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Service checks end to end on the agent, against real raw_exec tasks: a busybox httpd task with http, tcp and script
 * checks (the script runs in the task's cgroup and environment), the registry endpoints and their blocking queries, a
 * task restarted by {@code check_restart} with Nomad's event text, and nothing left once the alloc stops.
 */
@AgentIntegrationTest
class ServiceChecksAgentTest {

    static final long SECOND = 1_000_000_000L;

    @LocalServerPort
    int port;

    final JsonMapper json = JsonMapper.builder().build();
    final List<String> ids = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (String id : ids) {
            Http.send(port, "DELETE", "/v1/client/allocation/" + id, null);
        }
    }

    static String alloc(String id, String job, String groupExtra, String tasks) {
        return """
                {"ID":"%s","Name":"%s.app[0]","JobID":"%s","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"app",
                 "Job":{"ID":"%s","Name":"%s","Type":"service","TaskGroups":[{"Name":"app","Count":1,
                   "RestartPolicy":{"Attempts":3,"Interval":600000000000,"Delay":10000000,"Mode":"fail"},
                   "Networks":[{"DynamicPorts":[{"Label":"http"},{"Label":"dead"}]}]%s,
                   "Tasks":[%s]}]}}""".formatted(id, job, job, job, job, groupExtra, tasks);
    }

    static String check(String name, String type, String extra) {
        return """
                {"Name":"%s","Type":"%s","Interval":%d,"Timeout":%d%s}""".formatted(name, type, SECOND, SECOND, extra);
    }

    @Test
    void httpTcpAndScriptChecksOfARawExecTask() throws Exception {
        String id = UUID.randomUUID().toString();
        String job = "web-" + id.substring(0, 8);
        String checks = String.join(",",
                check("root", "http", ",\"Path\":\"/index.html\",\"Header\":{\"X-Alloc\":[\"${NOMAD_ALLOC_ID}\"]}"),
                check("missing", "http", ",\"Path\":\"/nope-${NOMAD_ALLOC_INDEX}\""),
                check("port", "tcp", ""),
                check("inside", "script", ",\"Command\":\"/bin/sh\",\"Args\":[\"-c\",\"echo alloc=$NOMAD_ALLOC_ID; cat /proc/self/cgroup\"]"));
        String task = """
                {"Name":"web","Driver":"raw_exec","KillTimeout":1000000000,
                 "Config":{"command":"/bin/sh","args":["-c","echo ok > \\"$NOMAD_TASK_DIR/index.html\\"; exec busybox httpd -f -p 127.0.0.1:$0 -h \\"$NOMAD_TASK_DIR\\"","${NOMAD_PORT_http}"]},
                 "Resources":{"CPU":20,"MemoryMB":32},
                 "Services":[{"Name":"%s","PortLabel":"http","Provider":"nomad","Tags":["port-${NOMAD_PORT_http}","v1"],"Checks":[%s]}]}"""
                .formatted(job, checks);
        put(id, alloc(id, job, "", task));
        String dyn = port(id, "http");

        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Map<String, JsonNode> byName = checksByName(id);
            return byName.size() == 4 && byName.values().stream().noneMatch(c -> "pending".equals(c.path("Status").asString()));
        });
        Map<String, JsonNode> byName = checksByName(id);
        JsonNode root = byName.get("root");
        assertThat(root.path("Status").asString()).isEqualTo("success");
        assertThat(root.path("Output").asString()).isEqualTo("nomad: http ok");
        assertThat(root.path("StatusCode").asInt()).isEqualTo(200);
        assertThat(root.path("Mode").asString()).isEqualTo("healthiness");
        assertThat(root.path("Group").asString()).isEqualTo("app");
        assertThat(root.path("Task").asString()).isEqualTo("web");
        assertThat(root.path("Service").asString()).isEqualTo(job);
        assertThat(root.path("ID").asString()).matches("[0-9a-f]{64}");
        assertThat(root.path("Timestamp").asLong()).isBetween(Instant.now().getEpochSecond() - 120, Instant.now().getEpochSecond() + 1);
        JsonNode missing = byName.get("missing");
        assertThat(missing.path("Status").asString()).isEqualTo("failure");
        assertThat(missing.path("StatusCode").asInt()).isEqualTo(404);
        assertThat(byName.get("port").path("Status").asString()).isEqualTo("success");
        assertThat(byName.get("port").path("Output").asString()).isEqualTo("nomad: tcp ok");
        JsonNode inside = byName.get("inside");
        assertThat(inside.path("Status").asString()).as(inside.toString()).isEqualTo("success");
        assertThat(inside.path("Output").asString()).contains("alloc=" + id).contains(id + ".web");

        HttpResponse<String> one = Http.send(port, "GET", "/v1/service/" + job, null);
        assertThat(one.statusCode()).isEqualTo(200);
        JsonNode regs = json.readTree(one.body());
        assertThat(regs).hasSize(1);
        JsonNode reg = regs.get(0);
        assertThat(reg.path("ID").asString()).isEqualTo("_nomad-task-" + id + "-web-" + job + "-http");
        assertThat(reg.path("ServiceName").asString()).isEqualTo(job);
        assertThat(reg.path("Namespace").asString()).isEqualTo("default");
        assertThat(reg.path("JobID").asString()).isEqualTo(job);
        assertThat(reg.path("AllocID").asString()).isEqualTo(id);
        assertThat(reg.path("NodeID").asString()).isNotEmpty();
        assertThat(reg.path("Address").asString()).isEqualTo("127.0.0.1");
        assertThat(reg.path("Port").asString()).isEqualTo(dyn);
        assertThat(reg.path("Tags").toString()).isEqualTo("[\"port-" + dyn + "\",\"v1\"]");
        assertThat(reg.path("Health").asString()).isEqualTo("failure");
        assertThat(reg.path("CreateIndex").asLong()).isPositive().isLessThanOrEqualTo(reg.path("ModifyIndex").asLong());

        JsonNode ofAlloc = json.readTree(Http.send(port, "GET", "/v1/allocation/" + id + "/services", null).body());
        assertThat(ofAlloc).hasSize(1);
        assertThat(ofAlloc.get(0).path("ID").asString()).isEqualTo(reg.path("ID").asString());

        JsonNode list = json.readTree(Http.send(port, "GET", "/v1/services", null).body());
        JsonNode ns = list.get(0);
        assertThat(ns.path("Namespace").asString()).isEqualTo("default");
        assertThat(ns.path("Services").toString()).contains("{\"ServiceName\":\"" + job + "\",\"Tags\":[\"port-" + dyn + "\",\"v1\"]}");

        // a blocking query on the service answers when the alloc stops and the registration goes
        String index = one.headers().firstValue("X-Nomad-Index").orElseThrow();
        CompletableFuture<HttpResponse<String>> blocked = CompletableFuture.supplyAsync(() -> {
            try {
                return Http.send(port, "GET", "/v1/service/" + job + "?index=" + index + "&wait=60s", null);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Http.send(port, "POST", "/v1/allocation/" + id + "/stop", null);
        HttpResponse<String> after = blocked.get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(Long.parseLong(after.headers().firstValue("X-Nomad-Index").orElseThrow())).isGreaterThan(Long.parseLong(index));
        await().atMost(Duration.ofSeconds(30)).until(() -> json.readTree(Http.send(port, "GET", "/v1/service/" + job, null).body()).isEmpty()
                && checksByName(id).isEmpty());
    }

    @Test
    void checkRestartRestartsTheTaskWithNomadsEvent() throws Exception {
        String id = UUID.randomUUID().toString();
        String job = "dead-" + id.substring(0, 8);
        String task = """
                {"Name":"sleeper","Driver":"raw_exec","KillTimeout":1000000000,"Config":{"command":"/bin/sleep","args":["600"]},
                 "Resources":{"CPU":20,"MemoryMB":16},
                 "Services":[{"Name":"%s","PortLabel":"dead","Provider":"nomad",
                   "Checks":[%s]}]}""".formatted(job, check("nobody-listens", "tcp", ",\"CheckRestart\":{\"Limit\":2,\"Grace\":0}"));
        put(id, alloc(id, job, "", task));

        await().atMost(Duration.ofSeconds(60)).until(() -> taskOf(id, "sleeper").path("Restarts").asInt() >= 1);
        JsonNode events = taskOf(id, "sleeper").path("Events");
        JsonNode signaled = null;
        for (JsonNode e : events) {
            if ("Restart Signaled".equals(e.path("Type").asString())) {
                signaled = e;
            }
        }
        assertThat(signaled).as(events.toString()).isNotNull();
        assertThat(signaled.path("RestartReason").asString()).isEqualTo("healthcheck: check \"nobody-listens\" unhealthy");
        assertThat(signaled.path("DisplayMessage").asString()).contains("healthcheck: check \"nobody-listens\" unhealthy");
        // the results say why
        await().atMost(Duration.ofSeconds(30)).until(() -> "failure".equals(checksByName(id).getOrDefault("nobody-listens",
                json.createObjectNode()).path("Status").asString()));
        assertThat(checksByName(id).get("nobody-listens").path("Output").asString()).startsWith("dial tcp 127.0.0.1:" + port(id, "dead"));
    }

    @Test
    void badChecksAreRefusedNamingTheField() throws Exception {
        String id = UUID.randomUUID().toString();
        String task = """
                {"Name":"t","Driver":"raw_exec","Config":{"command":"/bin/true"},
                 "Services":[{"Name":"svc","PortLabel":"http","Provider":"nomad",
                   "Checks":[{"Name":"fast","Type":"tcp","Interval":500000000,"Timeout":%d}]}]}""".formatted(SECOND);
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/client/allocation/" + id, alloc(id, "bad", "", task));
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("Job.TaskGroups[app].Tasks[t].Services[svc].Checks[fast].Interval")
                .contains("interval (500ms) cannot be lower than 1s");
        assertThat(Http.send(port, "GET", "/v1/allocation/" + id, null).statusCode()).isEqualTo(404);

        String unknownType = task.replace("\"Interval\":500000000", "\"Interval\":" + SECOND).replace("\"tcp\"", "\"icmp\"");
        r = Http.send(port, "PUT", "/v1/client/allocation/" + id, alloc(id, "bad", "", unknownType));
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("Checks[fast].Type").contains("invalid check type (\\\"icmp\\\"), must be one of tcp, http, grpc, script");

        String noPort = task.replace("\"PortLabel\":\"http\",", "").replace("\"Interval\":500000000", "\"Interval\":" + SECOND);
        r = Http.send(port, "PUT", "/v1/client/allocation/" + id, alloc(id, "bad", "", noPort));
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("Checks[fast].PortLabel").contains("check requires a port");
    }

    private void put(String id, String body) throws Exception {
        ids.add(id);
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/client/allocation/" + id, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    private String port(String id, String label) throws Exception {
        JsonNode alloc = json.readTree(Http.send(port, "GET", "/v1/allocation/" + id, null).body());
        for (JsonNode p : alloc.path("AllocatedResources").path("Shared").path("Ports")) {
            if (label.equals(p.path("Label").asString())) {
                return p.path("Value").asString();
            }
        }
        throw new AssertionError("no port " + label + " in " + alloc);
    }

    private JsonNode taskOf(String id, String task) throws Exception {
        return json.readTree(Http.send(port, "GET", "/v1/allocation/" + id, null).body()).path("TaskStates").path(task);
    }

    private Map<String, JsonNode> checksByName(String id) throws Exception {
        HttpResponse<String> r = Http.send(port, "GET", "/v1/client/allocation/" + id + "/checks", null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        Map<String, JsonNode> out = new java.util.LinkedHashMap<>();
        for (var e : json.readTree(r.body()).properties()) {
            assertThat(e.getValue().path("ID").asString()).isEqualTo(e.getKey());
            out.put(e.getValue().path("Check").asString(), e.getValue());
        }
        return out;
    }
}
