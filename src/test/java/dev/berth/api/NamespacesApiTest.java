package dev.berth.api;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Nomad's namespace API over HTTP on a real agent, and jobs, allocations and evaluations that live in namespaces: Nomad's
 * shapes, headers and error texts; the same job ID in two namespaces; {@code namespace=*} listings; a namespace that
 * still holds a running job refused for deletion until the job is gone. Each test names its own namespaces, as the
 * agent is shared.
 */
@AgentIntegrationTest
class NamespacesApiTest {

    @LocalServerPort
    int port;

    final JsonMapper json = JsonMapper.builder().build();
    String ns;

    @BeforeEach
    void name() {
        ns = "t-" + UUID.randomUUID().toString().substring(0, 8);
    }

    HttpResponse<String> send(String method, String pathAndQuery, String body) throws Exception {
        return Http.send(port, method, pathAndQuery, body);
    }

    JsonNode body(HttpResponse<String> r) {
        return json.readTree(r.body());
    }

    static long index(HttpResponse<String> r) {
        return Long.parseLong(r.headers().firstValue("X-Nomad-Index").orElseThrow());
    }

    void assertError(HttpResponse<String> r, int status, String detail) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(body(r).path("detail").asString()).isEqualTo(detail);
    }

    @Test
    void aNamespaceIsCreatedReadListedUpdatedAndDeletedInNomadsShapes() throws Exception {
        HttpResponse<String> created = send("PUT", "/v1/namespace/" + ns, """
                {"Name":"%s","Description":"team a","Meta":{"owner":"a"},"Quota":"","Capabilities":null}""".formatted(ns));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        assertThat(created.body()).isEmpty();
        long createIndex = index(created);

        HttpResponse<String> read = Http.get(port, "/v1/namespace/" + ns);
        assertThat(read.statusCode()).isEqualTo(200);
        JsonNode n = body(read);
        assertThat(n.propertyNames()).containsExactly("Name", "Description", "Quota", "Capabilities", "NodePoolConfiguration",
                "VaultConfiguration", "ConsulConfiguration", "Meta", "RequiredExtraClaims", "OptionalExtraClaims", "CreateIndex",
                "ModifyIndex");
        assertThat(n.path("Capabilities").isNull()).isTrue();
        assertThat(n.path("Description").asString()).isEqualTo("team a");
        assertThat(n.path("Meta").path("owner").asString()).isEqualTo("a");
        assertThat(n.path("CreateIndex").asLong()).isEqualTo(n.path("ModifyIndex").asLong()).isEqualTo(createIndex);
        assertThat(index(read)).isEqualTo(createIndex);

        // a blocking list wakes on the next write: here an update through /v1/namespace, the name in the body
        CompletableFuture<HttpResponse<String>> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return Http.get(port, "/v1/namespaces?prefix=" + ns + "&index=" + createIndex + "&wait=30s");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        HttpResponse<String> updated = send("POST", "/v1/namespace", """
                {"Name":"%s","Description":"team b"}""".formatted(ns));
        assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
        HttpResponse<String> woken = waiting.get(20, TimeUnit.SECONDS);
        assertThat(index(woken)).isEqualTo(index(updated)).isGreaterThan(createIndex);
        JsonNode listed = body(woken);
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).path("Description").asString()).isEqualTo("team b");
        assertThat(listed.get(0).path("Meta").isNull()).isTrue();
        assertThat(listed.get(0).path("CreateIndex").asLong()).as("an update keeps the create index").isEqualTo(createIndex);

        List<String> all = new ArrayList<>();
        body(Http.get(port, "/v1/namespaces")).forEach(x -> all.add(x.path("Name").asString()));
        assertThat(all).contains("default", ns);

        HttpResponse<String> deleted = send("DELETE", "/v1/namespace/" + ns, null);
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        assertThat(index(deleted)).isGreaterThan(index(updated));
        assertError(Http.get(port, "/v1/namespace/" + ns), 404, "Namespace not found");
        assertThat(body(Http.get(port, "/v1/namespaces?prefix=" + ns))).isEmpty();
    }

    @Test
    void theDefaultNamespaceAlwaysExistsAndIsNeverDeleted() throws Exception {
        JsonNode def = body(Http.get(port, "/v1/namespace/default"));
        assertThat(def.path("Name").asString()).isEqualTo("default");
        assertThat(def.path("Description").asString()).isEqualTo("Default shared namespace");
        assertError(send("DELETE", "/v1/namespace/default", null), 400, "can not delete default namespace");
        assertError(send("DELETE", "/v1/namespace/" + ns, null), 404, "namespace not found");
        assertThat(Http.get(port, "/v1/namespace/default").statusCode()).isEqualTo(200);
    }

    @Test
    void anInvalidNamespaceIsRefusedWithNomadsTextAndChangesNothing() throws Exception {
        assertError(send("PUT", "/v1/namespace/bad_name", "{\"Name\":\"bad_name\"}"), 400,
                "Invalid namespace \"bad_name\": 1 error occurred:\n\t* invalid name \"bad_name\". Must match regex ^[a-zA-Z0-9-]{1,128}$\n\n");
        assertError(send("PUT", "/v1/namespace/" + ns, "{\"Name\":\"other\"}"), 400, "Namespace name does not match request path");
        assertError(send("PUT", "/v1/namespace", "{\"Description\":\"" + "d".repeat(257) + "\"}"), 400,
                "Invalid namespace \"\": 2 errors occurred:\n\t* invalid name \"\". Must match regex ^[a-zA-Z0-9-]{1,128}$\n"
                        + "\t* description longer than 256\n\n");
        assertError(send("PUT", "/v1/namespace/" + ns, "{\"Name\":\"" + ns + "\",\"Quota\":\"q1\"}"), 400,
                "namespace \"" + ns + "\" using non-existent quota \"q1\"");
        assertError(send("PUT", "/v1/namespace/" + ns, "{\"Name\":\"" + ns + "\",\"VaultConfiguration\":{\"Default\":\"v\"}}"), 400,
                "Invalid namespace \"" + ns + "\": 1 error occurred:\n\t* invalid vault configuration: Multi-Cluster Vault is unlicensed.\n\n");
        assertThat(Http.get(port, "/v1/namespace/" + ns).statusCode()).isEqualTo(404);
        assertThat(Http.get(port, "/v1/namespace/bad_name").statusCode()).isEqualTo(404);
    }

    String job(String id, String namespaceField, String marker) {
        return """
                {"Job":{"ID":"%s","Name":"%s",%s"Type":"service","Datacenters":["dc1"],"TaskGroups":[{"Name":"app","Count":1,
                  "Tasks":[{"Name":"server","Driver":"raw_exec","Config":{"command":"/bin/sh","args":["-c","exec sleep 600"]},
                    "Env":{"MARKER":"%s"},"Resources":{"CPU":20,"MemoryMB":16}}]}]}}"""
                .formatted(id, id, namespaceField, marker);
    }

    List<JsonNode> runningAllocs(String id, String namespace) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode a : Http.ok(port, "GET", "/v1/job/" + id + "/allocations?namespace=" + namespace, null)) {
            if ("running".equals(a.path("ClientStatus").asString())) {
                out.add(a);
            }
        }
        return out;
    }

    @Test
    void theSameJobIdLivesInTwoNamespacesAndKeepsANamespaceUntilItIsGone() throws Exception {
        String id = "ns-job-" + UUID.randomUUID().toString().substring(0, 8);
        assertError(send("PUT", "/v1/jobs", job(id, "\"Namespace\":\"" + ns + "\",", "x")), 400,
                "1 error occurred:\n\t* job \"" + id + "\" is in nonexistent namespace \"" + ns + "\"\n\n");
        assertThat(send("PUT", "/v1/namespace/" + ns, "{\"Name\":\"" + ns + "\"}").statusCode()).isEqualTo(200);
        try {
            assertThat(send("PUT", "/v1/jobs", job(id, "", "in-default")).statusCode()).isEqualTo(200);
            // the namespace from the query parameter, as `nomad job run -namespace` sends it
            HttpResponse<String> other = send("PUT", "/v1/jobs?namespace=" + ns, job(id, "", "in-" + ns));
            assertThat(other.statusCode()).as(other.body()).isEqualTo(200);

            JsonNode inNs = Http.ok(port, "GET", "/v1/job/" + id + "?namespace=" + ns, null);
            JsonNode inDefault = Http.ok(port, "GET", "/v1/job/" + id, null);
            assertThat(inNs.path("Namespace").asString()).isEqualTo(ns);
            assertThat(inNs.path("TaskGroups").get(0).path("Tasks").get(0).path("Env").path("MARKER").asString()).isEqualTo("in-" + ns);
            assertThat(inDefault.path("Namespace").asString()).isEqualTo("default");
            assertThat(inDefault.path("TaskGroups").get(0).path("Tasks").get(0).path("Env").path("MARKER").asString())
                    .isEqualTo("in-default");

            List<String> listed = new ArrayList<>();
            Http.ok(port, "GET", "/v1/jobs?prefix=" + id + "&namespace=*", null).forEach(j -> listed.add(j.path("Namespace").asString()));
            assertThat(listed).containsExactlyInAnyOrder("default", ns);
            assertThat(Http.ok(port, "GET", "/v1/jobs?prefix=" + id, null)).hasSize(1);
            assertThat(Http.ok(port, "GET", "/v1/jobs?prefix=" + id + "&namespace=" + ns, null).get(0).path("Namespace").asString())
                    .isEqualTo(ns);

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertThat(runningAllocs(id, ns)).hasSize(1);
                assertThat(runningAllocs(id, "default")).hasSize(1);
            });
            String nsAlloc = runningAllocs(id, ns).get(0).path("ID").asString();
            assertThat(Http.ok(port, "GET", "/v1/allocation/" + nsAlloc, null).path("Namespace").asString()).isEqualTo(ns);
            List<String> nsAllocs = new ArrayList<>();
            Http.ok(port, "GET", "/v1/allocations?namespace=" + ns, null).forEach(a -> nsAllocs.add(a.path("ID").asString()));
            assertThat(nsAllocs).containsExactly(nsAlloc);
            List<String> allAllocs = new ArrayList<>();
            Http.ok(port, "GET", "/v1/allocations?namespace=*", null).forEach(a -> allAllocs.add(a.path("ID").asString()));
            assertThat(allAllocs).contains(nsAlloc).hasSizeGreaterThan(1);
            List<String> evalNamespaces = new ArrayList<>();
            Http.ok(port, "GET", "/v1/evaluations?namespace=" + ns, null).forEach(e -> evalNamespaces.add(e.path("Namespace").asString()));
            assertThat(evalNamespaces).isNotEmpty().containsOnly(ns);

            assertError(send("DELETE", "/v1/namespace/" + ns, null), 409, "2 errors occurred:\n"
                    + "\t* namespace \"" + ns + "\" has non-terminal jobs in regions: [global]\n"
                    + "\t* namespace \"" + ns + "\" has non-terminal allocations in regions: [global]\n\n");

            assertThat(send("DELETE", "/v1/job/" + id + "?namespace=" + ns + "&purge=true", null).statusCode()).isEqualTo(200);
            assertThat(Http.get(port, "/v1/job/" + id + "?namespace=" + ns).statusCode()).isEqualTo(404);
            assertThat(Http.get(port, "/v1/job/" + id).statusCode()).as("the default namespace's job stays").isEqualTo(200);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(send("DELETE", "/v1/namespace/" + ns, null).statusCode()).isEqualTo(200));
            assertThat(runningAllocs(id, "default")).hasSize(1);
        } finally {
            send("DELETE", "/v1/job/" + id + "?purge=true", null);
            send("DELETE", "/v1/job/" + id + "?namespace=" + ns + "&purge=true", null);
        }
    }

    @Test
    void aNamespacesCapabilitiesDecideWhichDriversItsJobsUse() throws Exception {
        HttpResponse<String> created = send("PUT", "/v1/namespace/" + ns, """
                {"Name":"%s","Capabilities":{"EnabledTaskDrivers":["exec","raw_exec"],"DisabledTaskDrivers":["raw_exec"]}}"""
                .formatted(ns));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        JsonNode capabilities = body(Http.get(port, "/v1/namespace/" + ns)).path("Capabilities");
        assertThat(capabilities.path("EnabledTaskDrivers").toString()).isEqualTo("[\"exec\",\"raw_exec\"]");
        assertThat(capabilities.path("DisabledTaskDrivers").toString()).isEqualTo("[\"raw_exec\"]");
        assertThat(capabilities.path("EnabledNetworkModes").isNull()).isTrue();

        String id = "cap-" + UUID.randomUUID().toString().substring(0, 8);
        assertError(send("PUT", "/v1/jobs", job(id, "\"Namespace\":\"" + ns + "\",", "x")), 400,
                "1 error occurred:\n\t* used task driver \"raw_exec\" is not allowed in namespace \"" + ns + "\"\n\n");
        assertThat(Http.get(port, "/v1/job/" + id + "?namespace=" + ns).statusCode()).isEqualTo(404);
        assertThat(send("DELETE", "/v1/namespace/" + ns, null).statusCode()).isEqualTo(200);
    }

    @Test
    void aJobspecNamesItsNamespaceAndAnHclJobIsRegisteredThere() throws Exception {
        assertThat(send("PUT", "/v1/namespace/" + ns, "{\"Name\":\"" + ns + "\"}").statusCode()).isEqualTo(200);
        JsonNode parsed = Http.ok(port, "PUT", "/v1/jobs/parse", json.writeValueAsString(java.util.Map.of("JobHCL", """
                job "hcl-ns" {
                  namespace = "%s"
                  type = "batch"
                  group "g" {
                    task "t" {
                      driver = "raw_exec"
                      config { command = "/bin/true" }
                    }
                  }
                }
                """.formatted(ns))));
        assertThat(parsed.path("Namespace").asString()).isEqualTo(ns);
        try {
            HttpResponse<String> reg = send("PUT", "/v1/jobs", "{\"Job\":" + parsed + "}");
            assertThat(reg.statusCode()).as(reg.body()).isEqualTo(200);
            assertThat(Http.ok(port, "GET", "/v1/job/hcl-ns?namespace=" + ns, null).path("Namespace").asString()).isEqualTo(ns);
            assertThat(Http.get(port, "/v1/job/hcl-ns").statusCode()).isEqualTo(404);
        } finally {
            send("DELETE", "/v1/job/hcl-ns?namespace=" + ns + "&purge=true", null);
        }
    }
}
