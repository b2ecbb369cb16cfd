package dev.berth.api;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.support.Http;
import dev.berth.support.TempDirs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Nomad 1.10's dynamic host volumes API on one agent: the {@code mkdir} plugin makes a directory, {@code register} takes
 * an existing path, both become node {@code HostVolumes} that real raw_exec and exec tasks of a job mount by name, a
 * volume in use cannot be deleted, and every bad request is a 400 with Nomad's text that changes nothing.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "berth.data-dir=${java.io.tmpdir}/berth-it-${random.uuid}",
        "berth.drivers.raw-exec.enabled=true",
        "berth.drivers.exec.enabled=true",
        "berth.acl.enabled=false",
        "server.address=127.0.0.1"
})
class DynamicHostVolumeApiTest {

    static Path volumesDir;
    static Path existing;

    @DynamicPropertySource
    static void volumes(DynamicPropertyRegistry registry) throws Exception {
        Path dir = TempDirs.removedAtExit("berth-dhv");
        volumesDir = dir.resolve("volumes");
        existing = Files.createDirectories(dir.resolve("existing"));
        Files.writeString(existing.resolve("hello.txt"), "registered\n");
        Path configured = Files.createDirectories(dir.resolve("configured"));
        registry.add("berth.host-volumes-dir", volumesDir::toString);
        registry.add("berth.host-volumes.configured.path", configured::toString);
    }

    @Value("${local.server.port}")
    int port;

    @Test
    void mkdirCreatesADirectoryThatTheNodeOffersAndDeleteRemovesIt() throws Exception {
        String name = "data-" + UUID.randomUUID().toString().substring(0, 8);
        JsonNode created = Http.ok(port, "PUT", "/v1/volume/host/create", """
                {"Volume":{"Name":"%s","PluginID":"mkdir","Parameters":{"mode":"0750"},
                  "RequestedCapacityMinBytes":1000,"RequestedCapacityMaxBytes":2000}}""".formatted(name));
        JsonNode v = created.path("Volume");
        String id = v.path("ID").asString();
        Path dir = volumesDir.resolve(id);
        assertThat(v.path("State").asString()).isEqualTo("ready");
        assertThat(v.path("HostPath").asString()).isEqualTo(dir.toString());
        assertThat(v.path("Namespace").asString()).isEqualTo("default");
        assertThat(v.path("NodePool").asString()).isEqualTo("default");
        assertThat(v.path("NodeID").asString()).isEqualTo(node().path("ID").asString());
        assertThat(v.path("RequestedCapacityMaxBytes").asLong()).isEqualTo(2000);
        assertThat(v.path("RequestedCapabilities").toString())
                .isEqualTo("[{\"AttachmentMode\":\"file-system\",\"AccessMode\":\"single-node-writer\"}]");
        assertThat(created.path("Index").asLong()).isEqualTo(v.path("ModifyIndex").asLong()).isPositive();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwxr-x---");
        assertThat(node().path("HostVolumes").path(name).toString())
                .isEqualTo("{\"Name\":\"%s\",\"Path\":\"%s\",\"ReadOnly\":false,\"ID\":\"%s\"}".formatted(name, dir, id));
        assertThat(node().path("Attributes").path("plugins.host_volume.mkdir.version").asString()).isEqualTo("0.0.1");

        assertThat(Http.ok(port, "GET", "/v1/volume/host/" + id, null).path("Name").asString()).isEqualTo(name);
        assertThat(Http.ok(port, "GET", "/v1/volumes?type=host&prefix=" + id.substring(0, 6), null))
                .extracting(s -> s.path("ID").asString()).contains(id);
        JsonNode stub = Http.ok(port, "GET", "/v1/volumes?type=host&prefix=" + id, null).get(0);
        assertThat(stub.has("HostPath")).isFalse();
        assertThat(stub.path("PluginID").asString()).isEqualTo("mkdir");
        assertThat(Http.ok(port, "GET", "/v1/volumes?type=host&prefix=" + id + "&node_id=other", null)).isEmpty();
        assertThat(Http.ok(port, "GET", "/v1/volumes?type=host&prefix=" + id + "&plugin_id=other", null)).isEmpty();
        assertThat(Http.ok(port, "GET", "/v1/volumes?type=host&prefix=" + id + "&namespace=other", null)).isEmpty();
        assertThat(Http.ok(port, "GET", "/v1/volumes?type=csi", null)).isEmpty();

        HttpResponse<String> deleted = Http.send(port, "DELETE", "/v1/volume/host/" + id, null);
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        assertThat(dir).doesNotExist();
        assertThat(node().path("HostVolumes").has(name)).isFalse();
        assertThat(Http.send(port, "GET", "/v1/volume/host/" + id, null).statusCode()).isEqualTo(404);
    }

    @Test
    void aRegisteredPathIsOfferedAndLeftInPlaceWhenDeleted() throws Exception {
        String name = "reg-" + UUID.randomUUID().toString().substring(0, 8);
        String nodeId = node().path("ID").asString();
        JsonNode v = Http.ok(port, "PUT", "/v1/volume/host/register", """
                {"Volume":{"Name":"%s","NodeID":"%s","HostPath":"%s","CapacityBytes":5}}""".formatted(name, nodeId, existing))
                .path("Volume");
        assertThat(v.path("PluginID").asString()).isEmpty();
        assertThat(v.path("CapacityBytes").asLong()).isEqualTo(5);
        assertThat(node().path("HostVolumes").path(name).path("Path").asString()).isEqualTo(existing.toString());
        String again = Http.send(port, "PUT", "/v1/volume/host/register", """
                {"Volume":{"Name":"%s","NodeID":"%s","HostPath":"%s"}}""".formatted(name, nodeId, existing)).body();
        assertThat(again).contains("volume name already exists on this node");
        assertThat(Http.send(port, "DELETE", "/v1/volume/host/" + v.path("ID").asString(), null).statusCode()).isEqualTo(200);
        assertThat(existing.resolve("hello.txt")).hasContent("registered");
    }

    @Test
    void jobTasksMountADynamicVolumeByNameAndItCannotBeDeletedWhileTheyRun() throws Exception {
        String name = "job-" + UUID.randomUUID().toString().substring(0, 8);
        JsonNode v = Http.ok(port, "PUT", "/v1/volume/host/create", """
                {"Volume":{"Name":"%s","PluginID":"mkdir","Parameters":{"mode":"0777"}}}""".formatted(name)).path("Volume");
        String id = v.path("ID").asString();
        Path dir = Path.of(v.path("HostPath").asString());
        Files.writeString(dir.resolve("in.txt"), "dynamic\n");
        String jobId = "dhv-" + id.substring(0, 8);
        String body = """
                {"Job":{"ID":"%s","Name":"%s","Type":"service","Datacenters":["dc1"],"TaskGroups":[{"Name":"g","Count":1,
                  "Volumes":{"v":{"Name":"v","Type":"host","Source":"%s","ReadOnly":false}},
                  "Tasks":[%s,%s]}]}}""".formatted(jobId, jobId, name,
                task("raw", "raw_exec", "cat srv/data/in.txt > srv/data/raw.txt; exec sleep 1000"),
                task("iso", "exec", "cat srv/data/in.txt > srv/data/exec.txt; exec sleep 1000"));
        Http.ok(port, "PUT", "/v1/jobs", body);
        await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(dir.resolve("raw.txt")) && Files.exists(dir.resolve("exec.txt")));
        assertThat(dir.resolve("raw.txt")).hasContent("dynamic");
        assertThat(dir.resolve("exec.txt")).hasContent("dynamic");

        String allocId = Http.ok(port, "GET", "/v1/job/" + jobId + "/allocations", null).get(0).path("ID").asString();
        HttpResponse<String> refused = Http.send(port, "DELETE", "/v1/volume/host/" + id, null);
        assertThat(refused.statusCode()).isEqualTo(409);
        assertThat(refused.body()).contains("volume " + id + " in use by allocations: [" + allocId + "]");
        assertThat(Http.ok(port, "GET", "/v1/volume/host/" + id, null).path("Allocations").get(0).path("ID").asString())
                .isEqualTo(allocId);
        assertThat(dir).exists();

        Http.send(port, "DELETE", "/v1/job/" + jobId + "?purge=true", null);
        await().atMost(Duration.ofSeconds(60)).until(() -> Http.send(port, "DELETE", "/v1/volume/host/" + id, null).statusCode() == 200);
        assertThat(dir).doesNotExist();
    }

    @Test
    void aCreateWithTheIdOfAVolumeUpdatesItAndABlockingListWakesForIt() throws Exception {
        String name = "upd-" + UUID.randomUUID().toString().substring(0, 8);
        JsonNode first = Http.ok(port, "PUT", "/v1/volume/host/create", """
                {"Volume":{"Name":"%s","PluginID":"mkdir"}}""".formatted(name)).path("Volume");
        String id = first.path("ID").asString();
        long index = Long.parseLong(Http.send(port, "GET", "/v1/volumes?type=host", null).headers()
                .firstValue(NomadQuery.INDEX).orElseThrow());
        CompletableFuture<HttpResponse<String>> woken = CompletableFuture.supplyAsync(() -> {
            try {
                return Http.send(port, "GET", "/v1/volumes?type=host&wait=30s&index=" + index, null, Duration.ofSeconds(40));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        JsonNode updated = Http.ok(port, "PUT", "/v1/volume/host/create", """
                {"Volume":{"ID":"%s","Name":"%s","RequestedCapacityMaxBytes":4096}}""".formatted(id, name)).path("Volume");
        assertThat(updated.path("ID").asString()).isEqualTo(id);
        assertThat(updated.path("PluginID").asString()).isEqualTo("mkdir");
        assertThat(updated.path("RequestedCapacityMaxBytes").asLong()).isEqualTo(4096);
        assertThat(updated.path("CreateIndex").asLong()).isEqualTo(first.path("CreateIndex").asLong());
        assertThat(updated.path("CreateTime").asLong()).isEqualTo(first.path("CreateTime").asLong());
        assertThat(updated.path("ModifyIndex").asLong()).isGreaterThan(first.path("ModifyIndex").asLong());
        HttpResponse<String> listed = woken.get(40, TimeUnit.SECONDS);
        assertThat(Long.parseLong(listed.headers().firstValue(NomadQuery.INDEX).orElseThrow())).isGreaterThan(index);
        assertThat(listed.body()).contains(id);
        HttpResponse<String> moved = Http.send(port, "PUT", "/v1/volume/host/create", """
                {"Volume":{"ID":"%s","Name":"%s","NodeID":"elsewhere","NodePool":"gpu"}}""".formatted(id, name));
        assertThat(moved.statusCode()).isEqualTo(400);
        assertThat(detail(moved)).isEqualTo("validating volume \"" + id + "\" update failed: 2 errors occurred:"
                + "\n\t* node ID cannot be updated\n\t* node pool cannot be updated\n\n");
        assertThat(Http.send(port, "DELETE", "/v1/volume/host/" + id, null).statusCode()).isEqualTo(200);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no body                  | create   |                                                                                  | Request body is empty
            no volume                | create   | {}                                                                               | missing volume definition
            wrong type               | create   | {"Volume":{"Name":7}}                                                            | json: cannot unmarshal number into Go struct field HostVolume.Volume.Name of type string
            missing name             | create   | {"Volume":{"PluginID":"mkdir"}}                                                  | volume validation failed: missing name
            capacity                 | create   | {"Volume":{"Name":"c","PluginID":"mkdir","RequestedCapacityMinBytes":9,"RequestedCapacityMaxBytes":2}} | volume validation failed: capacity_max (2) must be larger than capacity_min (9)
            two errors               | create   | {"Volume":{"ID":"x","PluginID":"mkdir"}}                                          | volume validation failed: 2 errors occurred:\\n\\t* invalid ID \\"x\\"\\n\\t* missing name
            access mode              | create   | {"Volume":{"Name":"c","PluginID":"mkdir","RequestedCapabilities":[{"AttachmentMode":"file-system","AccessMode":"rw"}]}} | volume validation failed: invalid access mode: \\"rw\\"
            distinct hosts           | create   | {"Volume":{"Name":"c","PluginID":"mkdir","Constraints":[{"Operand":"distinct_hosts"}]}} | invalid constraint distinct_hosts: host volumes of the same name are always on distinct hosts
            unknown id               | create   | {"Volume":{"ID":"00000000-0000-0000-0000-000000000000","Name":"c","PluginID":"mkdir"}} | cannot update volume \\"00000000-0000-0000-0000-000000000000\\": volume does not exist
            other node               | create   | {"Volume":{"Name":"c","PluginID":"mkdir","NodeID":"elsewhere"}}                | validating volume \\"c\\" against state failed: node \\"elsewhere\\" does not exist
            other pool               | create   | {"Volume":{"Name":"c","PluginID":"mkdir","NodePool":"gpu"}}                    | validating volume \\"c\\" against state failed: node pool \\"gpu\\" does not exist
            no plugin                | create   | {"Volume":{"Name":"c"}}                                                          | could not place volume \\"c\\": no node meets constraints: 0 nodes had existing volume, 0 nodes filtered by node pool governance, 1 nodes were infeasible
            unknown plugin           | create   | {"Volume":{"Name":"c","PluginID":"lvm"}}                                         | 1 nodes were infeasible
            unmet constraint         | create   | {"Volume":{"Name":"c","PluginID":"mkdir","Constraints":[{"LTarget":"${attr.kernel.name}","RTarget":"windows","Operand":"="}]}} | 1 nodes were infeasible
            name of a static volume  | create   | {"Volume":{"Name":"configured","PluginID":"mkdir"}}                             | 1 nodes had existing volume
            bad mode                 | create   | {"Volume":{"Name":"c","PluginID":"mkdir","Parameters":{"mode":"rwx"}}}         | invalid value for \\"mode\\": strconv.ParseUint: parsing \\"rwx\\": invalid syntax
            unknown parameter        | create   | {"Volume":{"Name":"c","PluginID":"mkdir","Parameters":{"size":"1G"}}}          | invalid value for \\"size\\": unknown mkdir parameter: \\"size\\"
            register without node    | register | {"Volume":{"Name":"c","HostPath":"/tmp"}}                                        | cannot register volume: node ID is required
            register without path    | register | {"Volume":{"Name":"c","NodeID":"n"}}                                             | cannot register volume: host path is required
            unknown operation        | import   | {"Volume":{"Name":"c"}}                                                          | Resource not found
            """)
    void aBadRequestIsRefusedWithNomadsTextAndChangesNothing(String why, String op, String body, String text) throws Exception {
        int before = Http.ok(port, "GET", "/v1/volumes?type=host", null).size();
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/volume/host/" + op, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo("import".equals(op) ? 404 : 400);
        assertThat(r.body()).contains(text);
        assertThat(Http.ok(port, "GET", "/v1/volumes?type=host", null)).hasSize(before);
        assertThat(node().path("HostVolumes").has("c")).isFalse();
    }

    @Test
    void registeringAPathThatDoesNotExistIsRefused() throws Exception {
        String nodeId = node().path("ID").asString();
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/volume/host/register",
                "{\"Volume\":{\"Name\":\"gone\",\"NodeID\":\"" + nodeId + "\",\"HostPath\":\"/no/such/dir\"}}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("could not verify host path for \\\"gone\\\": stat /no/such/dir: no such file or directory");
    }

    @Test
    void unknownIdsAreNotFoundAndOtherListTypesAreNomads404() throws Exception {
        String id = UUID.randomUUID().toString();
        HttpResponse<String> read = Http.send(port, "GET", "/v1/volume/host/" + id, null);
        assertThat(read.statusCode()).isEqualTo(404);
        assertThat(read.body()).contains("volume not found");
        HttpResponse<String> delete = Http.send(port, "DELETE", "/v1/volume/host/" + id, null);
        assertThat(delete.statusCode()).isEqualTo(404);
        assertThat(delete.body()).contains("no such volume: " + id);
        assertThat(Http.send(port, "DELETE", "/v1/volume/host/" + id + "?force=maybe", null).body()).contains("invalid force value");
        assertThat(Http.send(port, "GET", "/v1/volumes?type=nfs", null).statusCode()).isEqualTo(404);
        assertThat(Http.send(port, "GET", "/v1/volume/csi/x", null).statusCode()).isEqualTo(501);
    }

    private static String detail(HttpResponse<String> r) {
        return JsonMapper.builder().build().readTree(r.body()).path("detail").asString();
    }

    private JsonNode node() throws Exception {
        return Http.ok(port, "GET", "/v1/node/self", null);
    }

    private static String task(String name, String driver, String script) {
        return """
                {"Name":"%s","Driver":"%s","Config":{"command":"/bin/sh","args":["-c","%s"]},
                 "VolumeMounts":[{"Volume":"v","Destination":"/srv/data"}],"Resources":{"CPU":20,"MemoryMB":32}}"""
                .formatted(name, driver, script);
    }
}
