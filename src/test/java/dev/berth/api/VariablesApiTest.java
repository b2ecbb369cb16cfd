package dev.berth.api;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

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
 * Nomad's Variables API over HTTP on a real agent: writes, reads and lists with Nomad's shapes and headers, check-and-set
 * conflicts answered with the current variable, locks taken by one holder and refused to a second, paging and prefixes,
 * blocking reads, the event stream's {@code Variable} topic and Nomad's error texts. Each test works under its own
 * path prefix, as the agent is shared.
 */
@AgentIntegrationTest
class VariablesApiTest {

    @LocalServerPort
    int port;

    final JsonMapper json = JsonMapper.builder().build();
    String root;

    @BeforeEach
    void prefix() {
        root = "t" + UUID.randomUUID().toString().substring(0, 8);
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

    @Test
    void aVariableIsWrittenReadListedAndDeletedInNomadsShapes() throws Exception {
        HttpResponse<String> put = send("PUT", "/v1/var/" + root + "/db", """
                {"Namespace":"default","Path":"ignored","Items":{"user":"app","password":"s3cret"}}""");
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        JsonNode written = body(put);
        assertThat(written.path("Path").asString()).isEqualTo(root + "/db");
        assertThat(written.path("Items").path("password").asString()).isEqualTo("s3cret");
        assertThat(written.path("CreateIndex").asLong()).isEqualTo(written.path("ModifyIndex").asLong()).isEqualTo(index(put));
        assertThat(written.has("Lock")).isFalse();

        HttpResponse<String> get = Http.get(port, "/v1/var/" + root + "/db");
        assertThat(get.statusCode()).isEqualTo(200);
        assertThat(json.readTree(get.body()).propertyNames()).containsExactly("Namespace", "Path", "CreateIndex", "CreateTime",
                "ModifyIndex", "ModifyTime", "Items");
        assertThat(index(get)).isEqualTo(written.path("ModifyIndex").asLong());

        HttpResponse<String> list = Http.get(port, "/v1/vars?prefix=" + root);
        JsonNode stubs = body(list);
        assertThat(stubs).hasSize(1);
        assertThat(stubs.get(0).has("Items")).as("a listing never carries items").isFalse();
        assertThat(index(list)).isGreaterThanOrEqualTo(index(put));
        assertThat(body(Http.get(port, "/v1/vars?prefix=" + root + "&namespace=*"))).hasSize(1);
        assertThat(body(Http.get(port, "/v1/vars?prefix=" + root + "&namespace=prod"))).as("no such namespace: empty").isEmpty();
        assertThat(Http.get(port, "/v1/var/" + root + "/db?namespace=prod").statusCode()).isEqualTo(404);

        HttpResponse<String> delete = send("DELETE", "/v1/var/" + root + "/db", null);
        assertThat(delete.statusCode()).isEqualTo(204);
        assertThat(index(delete)).isGreaterThan(index(put));
        HttpResponse<String> gone = Http.get(port, "/v1/var/" + root + "/db");
        assertThat(gone.statusCode()).isEqualTo(404);
        assertThat(body(gone).path("detail").asString()).isEqualTo("variable not found");
        assertThat(index(gone)).as("a missing variable answers the table index").isEqualTo(index(delete));
    }

    @Test
    void aStaleCheckAndSetIsAConflictCarryingTheCurrentVariable() throws Exception {
        String path = "/v1/var/" + root + "/cfg";
        HttpResponse<String> created = send("PUT", path + "?cas=0", "{\"Items\":{\"v\":\"1\"}}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        long index = body(created).path("ModifyIndex").asLong();

        HttpResponse<String> again = send("PUT", path + "?cas=0", "{\"Items\":{\"v\":\"2\"}}");
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(body(again).path("Items").path("v").asString()).isEqualTo("1");
        assertThat(index(again)).isEqualTo(index);

        assertThat(send("PUT", path + "?cas=" + (index - 1), "{\"Items\":{\"v\":\"2\"}}").statusCode()).isEqualTo(409);
        HttpResponse<String> updated = send("PUT", path + "?cas=" + index, "{\"Items\":{\"v\":\"2\"}}");
        assertThat(updated.statusCode()).isEqualTo(200);
        assertThat(send("DELETE", path + "?cas=" + index, null).statusCode()).isEqualTo(409);
        assertThat(send("DELETE", path + "?cas=" + body(updated).path("ModifyIndex").asLong(), null).statusCode()).isEqualTo(204);
        HttpResponse<String> missing = send("PUT", path + "?cas=5", "{\"Items\":{\"v\":\"3\"}}");
        assertThat(missing.statusCode()).isEqualTo(409);
        assertThat(body(missing).path("ModifyIndex").asLong()).isZero();
        assertThat(body(missing).path("Path").asString()).isEqualTo(root + "/cfg");
    }

    @Test
    void aLockIsHeldByOneHolderAndRefusedToASecond() throws Exception {
        String path = "/v1/var/" + root + "/leader";
        HttpResponse<String> first = send("PUT", path + "?lock-acquire", "{\"Lock\":{\"TTL\":\"20s\"},\"Items\":{\"node\":\"a\"}}");
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        JsonNode lock = body(first).path("Lock");
        assertThat(lock.path("TTL").asString()).isEqualTo("20s");
        assertThat(lock.path("LockDelay").asString()).isEqualTo("15s");
        String id = lock.path("ID").asString();
        assertThat(id).isNotEmpty();

        HttpResponse<String> second = send("PUT", path + "?lock-acquire", "{\"Items\":{\"node\":\"b\"}}");
        assertThat(second.statusCode()).isEqualTo(409);
        assertThat(body(second).propertyNames()).containsExactly("Namespace", "Path", "CreateIndex", "CreateTime", "ModifyIndex",
                "ModifyTime");
        assertThat(send("PUT", path, "{\"Items\":{\"node\":\"b\"}}").statusCode()).as("a write without the lock ID").isEqualTo(409);
        assertThat(send("DELETE", path, null).statusCode()).isEqualTo(409);

        HttpResponse<String> renewed = send("PUT", path + "?lock-renew", "{\"Lock\":{\"ID\":\"" + id + "\"}}");
        assertThat(renewed.statusCode()).as(renewed.body()).isEqualTo(200);
        assertThat(body(renewed).path("Lock").path("ID").asString()).isEqualTo(id);
        HttpResponse<String> stranger = send("PUT", path + "?lock-renew", "{\"Lock\":{\"ID\":\"someone-else\"}}");
        assertThat(stranger.statusCode()).isEqualTo(409);
        assertThat(body(stranger).path("detail").asString()).isEqualTo("attempting to modify locked variable");
        HttpResponse<String> holderWrite = send("PUT", path, "{\"Lock\":{\"ID\":\"" + id + "\"},\"Items\":{\"node\":\"a2\"}}");
        assertThat(holderWrite.statusCode()).as(holderWrite.body()).isEqualTo(200);

        assertThat(send("PUT", path + "?lock-release", "{\"Lock\":{\"ID\":\"someone-else\"}}").statusCode()).isEqualTo(409);
        HttpResponse<String> released = send("PUT", path + "?lock-release", "{\"Lock\":{\"ID\":\"" + id + "\"}}");
        assertThat(released.statusCode()).as(released.body()).isEqualTo(200);
        assertThat(body(released).has("Lock")).isFalse();
        assertThat(body(Http.get(port, "/v1/var/" + root + "/leader")).path("Items").path("node").asString())
                .as("a release keeps the items").isEqualTo("a2");
        HttpResponse<String> next = send("PUT", path + "?lock-acquire", "{}");
        assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
        assertThat(body(next).path("Lock").path("ID").asString()).isNotEqualTo(id);
        send("PUT", path + "?lock-release", "{\"Lock\":{\"ID\":\"" + body(next).path("Lock").path("ID").asString() + "\"}}");
    }

    @Test
    void listsArePagedAndPrefixed() throws Exception {
        for (String name : new String[] {"a/1", "a/2", "a/3", "b/1"}) {
            assertThat(send("PUT", "/v1/var/" + root + "/" + name, "{\"Items\":{\"k\":\"v\"}}").statusCode()).isEqualTo(200);
        }
        HttpResponse<String> page1 = Http.get(port, "/v1/vars?prefix=" + root + "/a&per_page=2");
        assertThat(body(page1)).extracting(n -> n.path("Path").asString()).containsExactly(root + "/a/1", root + "/a/2");
        String token = page1.headers().firstValue("X-Nomad-NextToken").orElseThrow();
        assertThat(token).isEqualTo("default." + root + "/a/3");
        HttpResponse<String> page2 = Http.get(port, "/v1/vars?prefix=" + root + "/a&per_page=2&next_token=" + token);
        assertThat(body(page2)).extracting(n -> n.path("Path").asString()).containsExactly(root + "/a/3");
        assertThat(page2.headers().firstValue("X-Nomad-NextToken")).isEmpty();
        assertThat(body(Http.get(port, "/v1/vars?prefix=" + root))).hasSize(4);
        assertThat(Http.get(port, "/v1/vars?per_page=x").statusCode()).isEqualTo(400);
    }

    @Test
    void aBlockingReadWaitsForTheVariableToChange() throws Exception {
        String path = "/v1/var/" + root + "/watched";
        long index = index(send("PUT", path, "{\"Items\":{\"v\":\"1\"}}"));
        CompletableFuture<HttpResponse<String>> blocked = CompletableFuture.supplyAsync(() -> {
            try {
                return Http.get(port, path + "?index=" + index + "&wait=2m");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !blocked.isDone());
        send("PUT", "/v1/var/" + root + "/other", "{\"Items\":{\"v\":\"x\"}}");
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !blocked.isDone());
        send("PUT", path, "{\"Items\":{\"v\":\"2\"}}");
        HttpResponse<String> woke = blocked.get(60, TimeUnit.SECONDS);
        assertThat(body(woke).path("Items").path("v").asString()).isEqualTo("2");
        assertThat(index(woke)).isGreaterThan(index);
    }

    @Test
    void theEventStreamCarriesVariableMetadataButNeverItems() throws Exception {
        long before = index(Http.get(port, "/v1/vars"));
        send("PUT", "/v1/var/" + root + "/evented", "{\"Items\":{\"secret\":\"do-not-stream\"}}");
        send("DELETE", "/v1/var/" + root + "/evented", null);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/event/stream?topic=Variable&index="
                + (before + 1))).build();
        HttpResponse<Stream<String>> stream = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofLines());
        try (Stream<String> lines = stream.body()) {
            java.util.List<JsonNode> events = lines.filter(l -> l.contains("\"Events\""))
                    .flatMap(l -> json.readTree(l).path("Events").valueStream())
                    .filter(e -> e.path("Key").asString().equals(root + "/evented")).limit(2).toList();
            assertThat(events).extracting(e -> e.path("Topic").asString()).containsOnly("Variable");
            assertThat(events).extracting(e -> e.path("Type").asString()).containsOnly("VariableUpdated");
            assertThat(events).extracting(e -> e.path("Payload").path("Deleted").asBoolean()).containsExactly(false, true);
            assertThat(events.get(0).path("Payload").path("Metadata").path("Path").asString()).isEqualTo(root + "/evented");
            assertThat(events.toString()).doesNotContain("do-not-stream");
        }
    }

    @Test
    void badRequestsAreRefusedWithNomadsTexts() throws Exception {
        assertError(send("PUT", "/v1/var/" + root + "/a%20b", "{\"Items\":{\"k\":\"v\"}}"), 400, "invalid path \"" + root + "/a b\"");
        assertError(send("PUT", "/v1/var/" + root, "{\"Items\":{}}"), 400, "variable missing required Items object");
        assertError(send("PUT", "/v1/var/nomad/other", "{\"Items\":{\"k\":\"v\"}}"), 400,
                "only paths at \"nomad/jobs\" or \"nomad/job-templates\" and below are valid paths under the top-level \"nomad\" directory");
        assertError(send("PUT", "/v1/var/" + root + "?lock-acquire&lock-release", "{}"), 400, "multiple lock operations");
        assertError(send("PUT", "/v1/var/" + root + "?lock-acquire&cas=1", "{}"), 400, "CAS can't be used with lock operations");
        assertError(send("PUT", "/v1/var/" + root + "?cas=x", "{\"Items\":{\"k\":\"v\"}}"), 400,
                "can not parse cas: strconv.ParseUint: parsing \"x\": invalid syntax");
        assertError(send("PUT", "/v1/var/" + root, "{\"Items\":{\"k\":\"v\"},\"Lock\":{\"TTL\":\"15s\"}}"), 400,
                "variable should not contain lock definition");
        assertError(send("PUT", "/v1/var/" + root + "?namespace=prod", "{\"Items\":{\"k\":\"v\"}}"), 400,
                "variable \"" + root + "\" is in nonexistent namespace \"prod\"");
        assertError(send("PUT", "/v1/var/" + root + "?lock-renew", "{\"Lock\":{\"ID\":\"x\"}}"), 404, "variable doesn't exist");
        assertError(send("PUT", "/v1/var/", "{\"Items\":{\"k\":\"v\"}}"), 400, "missing variable path");
        HttpResponse<String> text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/v1/var/" + root + "/none")).header("User-Agent", "Go-http-client/1.1").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(text.statusCode()).isEqualTo(404);
        assertThat(text.body()).as("Nomad's own clients get the plain text").isEqualTo("variable not found");
    }

    void assertError(HttpResponse<String> r, int status, String detail) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(body(r).path("detail").asString()).isEqualTo(detail);
    }
}
