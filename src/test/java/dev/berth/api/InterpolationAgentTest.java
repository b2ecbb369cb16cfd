package dev.berth.api;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.config.BerthProperties;
import dev.berth.fingerprint.NodeRegistry;
import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Runtime interpolation reaches a real raw_exec process: its argv carries the port, node and alloc values, not ${...}. */
@AgentIntegrationTest
class InterpolationAgentTest {

    @LocalServerPort
    int port;

    @Autowired
    BerthProperties props;

    @Autowired
    NodeRegistry node;

    final JsonMapper json = JsonMapper.builder().build();
    String id;

    @AfterEach
    void cleanUp() throws Exception {
        if (id != null) {
            Http.send(port, "DELETE", "/v1/client/allocation/" + id, null);
        }
    }

    @Test
    void rawExecArgsEnvAndNestedConfigAreInterpolated() throws Exception {
        id = UUID.randomUUID().toString();
        // The arguments go to the script as positional parameters: the shell never expands them, only Berth can.
        String body = """
                {"ID":"%s","Name":"web.app[0]","JobID":"web","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"app",
                 "Job":{"ID":"web","Name":"web","Type":"service","Meta":{"owner":"${node.unique.name}"},"TaskGroups":[{"Name":"app","Count":1,
                   "Networks":[{"DynamicPorts":[{"Label":"http"}]}],
                   "Tasks":[{"Name":"server","Driver":"raw_exec",
                     "Config":{"command":"/bin/sh","args":["-c","printf '%%s\\\\n' \\"$@\\" > \\"$NOMAD_TASK_DIR/argv\\"; printf '%%s\\\\n' \\"$GREETING\\" \\"$NOMAD_META_owner\\" > \\"$NOMAD_TASK_DIR/env\\"; exec sleep 600",
                        "sh","${NOMAD_PORT_http}","${NOMAD_ADDR_http}","${NOMAD_ALLOC_ID}","${NOMAD_ALLOC_INDEX}","${node.unique.name}",
                        "${node.datacenter}","${attr.kernel.name}","${env[\\"NOMAD_TASK_NAME\\"]}","${NOMAD_PORT_nope}"]},
                     "Env":{"GREETING":"port ${NOMAD_PORT_http} on ${node.unique.name}"},
                     "Resources":{"CPU":20,"MemoryMB":32}}]}]}}""".formatted(id);
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/client/allocation/" + id, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);

        Path local = props.allocDir().resolve(id).resolve("server/local");
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(local.resolve("env")) && Files.readString(local.resolve("env")).lines().count() == 2);
        JsonNode alloc = json.readTree(Http.send(port, "GET", "/v1/allocation/" + id, null).body());
        String dyn = alloc.path("AllocatedResources").path("Shared").path("Ports").get(0).path("Value").asString();
        String nodeName = node.current().name();

        List<String> argv = Files.readAllLines(local.resolve("argv"));
        assertThat(argv).containsExactly(dyn, "127.0.0.1:" + dyn, id, "0", nodeName, node.current().datacenter(),
                node.current().attributes().get("kernel.name"), "server", "${NOMAD_PORT_nope}");
        assertThat(Files.readAllLines(local.resolve("env"))).containsExactly("port " + dyn + " on " + nodeName, nodeName);
    }
}
