package dev.berth.restore;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Service checks survive an agent restart (a real agent JVM, a real raw_exec task): after SIGTERM and a new start on the
 * same data dir, the re-attached task's checks are re-armed under the same IDs, run again, and exist once: one
 * registration, two armed checks.
 */
class ChecksAcrossAgentRestartTest {

    @TempDir
    Path tmp;

    final JsonMapper json = JsonMapper.builder().build();

    @Test
    void checksAreReArmedNotDuplicated() throws Exception {
        Path data = tmp.resolve("data");
        String id = UUID.randomUUID().toString();
        String svc = "web-" + id.substring(0, 8);
        String body = """
                {"ID":"%s","Name":"web.app[0]","JobID":"web","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"app",
                 "Job":{"ID":"web","Name":"web","Type":"service","TaskGroups":[{"Name":"app","Count":1,
                   "Networks":[{"DynamicPorts":[{"Label":"http"}]}],
                   "Tasks":[{"Name":"web","Driver":"raw_exec","KillTimeout":1000000000,
                     "Config":{"command":"/bin/sh","args":["-c","echo ok > \\"$NOMAD_TASK_DIR/index.html\\"; exec busybox httpd -f -p 127.0.0.1:$0 -h \\"$NOMAD_TASK_DIR\\"","${NOMAD_PORT_http}"]},
                     "Resources":{"CPU":20,"MemoryMB":32},
                     "Services":[{"Name":"%s","PortLabel":"http","Provider":"nomad","Checks":[
                       {"Name":"http","Type":"http","Path":"/index.html","Interval":1000000000,"Timeout":1000000000},
                       {"Name":"runs","Type":"script","Command":"/bin/sh","Args":["-c","echo run >> \\"$NOMAD_TASK_DIR/../runs\\""],
                        "Interval":1000000000,"Timeout":1000000000}]}]}]}]}}""".formatted(id, svc);
        try (AgentProcess agent = new AgentProcess(data)) {
            agent.start();
            agent.put(id, body);
            await().atMost(Duration.ofSeconds(90)).until(() -> allSucceed(agent, id));
            Map<String, String> before = idsByName(agent, id);
            assertThat(before).containsOnlyKeys("http", "runs");

            agent.stopGracefully();
            Instant restarted = Instant.now();
            agent.start();

            await().atMost(Duration.ofSeconds(90)).until(() -> allSucceed(agent, id)
                    && checks(agent, id).values().stream().allMatch(c -> c.path("Timestamp").asLong() >= restarted.getEpochSecond()));
            assertThat(idsByName(agent, id)).isEqualTo(before);
            JsonNode regs = json.readTree(agent.send("GET", "/v1/service/" + svc, null).body());
            assertThat(regs).hasSize(1);
            assertThat(regs.get(0).path("Health").asString()).isEqualTo("success");
            // armed once each: the gauge of armed checks counts two, whatever their status
            String scrape = agent.send("GET", "/actuator/prometheus", null).body();
            double armed = scrape.lines().filter(l -> l.startsWith("berth_service_checks{"))
                    .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
            assertThat(armed).isEqualTo(2.0);
            // the script check keeps running after the restart
            Path runs = data.resolve("alloc").resolve(id).resolve("web").resolve("runs");
            long seen = Files.readAllLines(runs).size();
            await().atMost(Duration.ofSeconds(30)).until(() -> Files.readAllLines(runs).size() >= seen + 2);

            assertThat(agent.send("DELETE", "/v1/client/allocation/" + id, null).statusCode()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(30)).until(() -> json.readTree(agent.send("GET", "/v1/service/" + svc, null).body()).isEmpty());
        }
    }

    private boolean allSucceed(AgentProcess agent, String id) throws Exception {
        Map<String, JsonNode> c = checks(agent, id);
        return c.size() == 2 && c.values().stream().allMatch(r -> "success".equals(r.path("Status").asString()));
    }

    private Map<String, String> idsByName(AgentProcess agent, String id) throws Exception {
        Map<String, String> out = new TreeMap<>();
        checks(agent, id).forEach((name, r) -> out.put(name, r.path("ID").asString()));
        return out;
    }

    private Map<String, JsonNode> checks(AgentProcess agent, String id) throws Exception {
        HttpResponse<String> r = agent.send("GET", "/v1/client/allocation/" + id + "/checks", null);
        Map<String, JsonNode> out = new TreeMap<>();
        if (r.statusCode() == 200) {
            json.readTree(r.body()).properties().forEach(e -> out.put(e.getValue().path("Check").asString(), e.getValue()));
        }
        return out;
    }
}
