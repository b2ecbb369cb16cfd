package dev.berth.api;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.Application;
import dev.berth.support.Http;
import dev.berth.support.ThrowawayDataDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 14: property-based fuzzing of {@code PUT /v1/client/allocation/{id}} on a real agent (in this JVM, its own port and
 * data dir, mock_driver and raw_exec). Each try takes a valid allocation (one of two templates), applies 1–3 random
 * mutations at random JSON paths (null, wrong type, huge/negative/fractional numbers, control-character and path-like
 * strings, deep nesting, removed fields, null or duplicated list elements) and submits it. Properties: never a 5xx; a
 * refused submission leaves nothing behind (no record, no alloc dir, no task process); an accepted one settles
 * ({@code running}, {@code complete} or {@code failed}) within {@value #SETTLE_SECONDS} s, and is then destroyed.
 *
 * <p>Tries: {@code jqwik.tries.default} in {@code src/test/resources/junit-platform.properties} (1,000), or
 * {@code -Djqwik.tries.default=N}. jqwik prints the seed of a failing run ({@code seed = …}); {@code @Property(seed = "…")}
 * replays it exactly (every sample derives from its {@code seed} parameter, nothing else is random).
 * Shrinking is off to keep the CI time bounded; the failing sample is printed whole.
 */
class SubmissionFuzzTest {

    static final int SETTLE_SECONDS = 30;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Set<String> SETTLED = Set.of("running", "complete", "failed");

    private static ConfigurableApplicationContext agent;
    private static int port;
    private static Path dataDir;

    @BeforeContainer
    static void startAgent() throws IOException {
        dataDir = Files.createTempDirectory("berth-fuzz-");
        // command-line arguments: they win over ./application.yml (builder properties would only be defaults)
        agent = new SpringApplicationBuilder(Application.class).run("--server.port=0", "--server.address=127.0.0.1",
                "--berth.data-dir=" + dataDir, "--berth.drivers.mock.enabled=true", "--berth.drivers.raw-exec.enabled=true",
                "--berth.acl.enabled=false", "--berth.alloc.secrets-tmpfs=false", "--spring.main.banner-mode=off",
                "--logging.level.dev.berth=WARN");
        port = ((WebServerApplicationContext) agent).getWebServer().getPort();
    }

    private static final List<String> DESTROYED = new java.util.concurrent.CopyOnWriteArrayList<>();

    @AfterContainer
    static void stopAgent() {
        try {
            await().atMost(Duration.ofSeconds(SETTLE_SECONDS * 2)).untilAsserted(() -> {
                String listed = Http.send(port, "GET", "/v1/client/allocations", null).body();
                assertThat(DESTROYED).as("destroyed allocations still listed").noneMatch(listed::contains);
                assertThat(liveTaskProcesses("")).as("task processes left after every allocation was destroyed").isZero();
            });
        } finally {
            if (agent != null) {
                agent.close();
            }
            ThrowawayDataDir.delete(dataDir);
        }
    }

    static final String MOCK = """
            {"ID":"%1$s","Name":"f.g[0]","JobID":"f","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"g",
             "Job":{"ID":"f","Name":"f","Type":"service","Meta":{"k":"v"},
              "TaskGroups":[{"Name":"g","Count":1,
                "RestartPolicy":{"Attempts":1,"Interval":60000000000,"Delay":1000000,"Mode":"fail"},
                "Networks":[{"DynamicPorts":[{"Label":"http"}]}],
                "Tasks":[{"Name":"t","Driver":"mock_driver","Config":{"run_for":"1h","exit_code":0},
                  "Env":{"A":"b"},"KillTimeout":1000000000,"LogConfig":{"MaxFiles":2,"MaxFileSizeMB":1},
                  "Resources":{"CPU":10,"MemoryMB":10}},
                 {"Name":"side","Driver":"mock_driver","Lifecycle":{"Hook":"poststart","Sidecar":true},
                  "Config":{"run_for":"1h"},"Resources":{"CPU":10,"MemoryMB":10}}]}]}}""";

    static final String RAW = """
            {"ID":"%1$s","Name":"f.g[0]","JobID":"f","AllocModifyIndex":1,"TaskGroup":"g",
             "Job":{"ID":"f","Type":"batch",
              "TaskGroups":[{"Name":"g",
                "RestartPolicy":{"Attempts":1,"Interval":60000000000,"Delay":1000000,"Mode":"fail"},
                "Tasks":[{"Name":"t","Driver":"raw_exec","Config":{"command":"/bin/sh","args":["-c","sleep 600"]},
                  "KillTimeout":1000000000,"Resources":{"CPU":10,"MemoryMB":10}}]}]}}""";

    @Property(shrinking = ShrinkingMode.OFF)
    void noSubmissionBreaksTheAgentOrLeavesAnythingBehind(@ForAll long seed, @ForAll @IntRange(min = 1, max = 3) int mutations)
            throws Exception {
        Random random = new Random(seed);
        String id = UUID.randomUUID().toString();
        boolean raw = random.nextInt(4) == 0;
        ObjectNode alloc = (ObjectNode) JSON.readTree((raw ? RAW : MOCK).formatted(id));
        List<String> applied = new ArrayList<>();
        for (int i = 0; i < mutations; i++) {
            applied.add(mutate(alloc, random));
        }
        String body = JSON.writeValueAsString(alloc);
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/client/allocation/" + id, body, Duration.ofSeconds(60));
        String sample = "mutations " + applied + "\nbody " + body + "\nanswer " + r.statusCode() + " " + r.body();
        assertThat(r.statusCode()).as(sample).isLessThan(500);
        if (r.statusCode() != 200) {
            assertThat(Http.send(port, "GET", "/v1/allocation/" + id, null).statusCode()).as(sample).isEqualTo(404);
            assertThat(Files.exists(dataDir.resolve("alloc").resolve(id))).as(sample).isFalse();
            if (raw) {
                // only the raw_exec template can make a process (mock_driver tasks live in the agent's JVM)
                assertThat(liveTaskProcesses(id)).as(sample).isZero();
            }
            return;
        }
        try {
            await().atMost(Duration.ofSeconds(SETTLE_SECONDS)).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
                HttpResponse<String> g = Http.send(port, "GET", "/v1/allocation/" + id, null);
                assertThat(g.statusCode()).as(sample).isEqualTo(200);
                assertThat(settled(JSON.readTree(g.body()))).as(sample + "\nnow " + g.body()).isTrue();
            });
        } finally {
            // destroyed at once; that every destroy finished (record and processes gone) is checked once at the end
            assertThat(Http.send(port, "DELETE", "/v1/client/allocation/" + id, null).statusCode()).as(sample).isLessThan(500);
            DESTROYED.add(id);
        }
    }

    /**
     * Settled: {@code running}, {@code complete} or {@code failed}; or {@code pending} only because a task that ran and
     * exited waits out its restart delay (a mutation may lengthen the delay or drop the policy, and Nomad's default batch
     * policy waits 15 s three times), which the restart tracker's own tests cover. Anything else is stuck in between.
     */
    static boolean settled(JsonNode alloc) {
        if (SETTLED.contains(alloc.path("ClientStatus").asString())) {
            return true;
        }
        if (!"pending".equals(alloc.path("ClientStatus").asString()) || alloc.path("TaskStates").isEmpty()) {
            return false;
        }
        for (JsonNode state : alloc.path("TaskStates")) {
            JsonNode events = state.path("Events");
            boolean waitingToRestart = "pending".equals(state.path("State").asString()) && !events.isEmpty()
                    && "Restarting".equals(events.get(events.size() - 1).path("Type").asString());
            if (!waitingToRestart && !"running".equals(state.path("State").asString()) && !"dead".equals(state.path("State").asString())) {
                return false;
            }
        }
        return true;
    }

    /** Applies one mutation at a random path of the tree; returns what it did. */
    static String mutate(ObjectNode root, Random random) {
        List<String[]> paths = new ArrayList<>();
        collect(root, "", paths);
        String[] target = paths.get(random.nextInt(paths.size()));
        String path = target[0];
        JsonNode parent = at(root, target[1]);
        String key = target[2];
        int kind = random.nextInt(12);
        JsonNode value = switch (kind) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.numberNode(pick(random, Long.MAX_VALUE, Long.MIN_VALUE, -1L, 0L, Integer.MAX_VALUE + 1L, 1L << 53));
            case 2 -> NODES.numberNode(pick(random, -0.5, 1e308, 3.7));
            case 3 -> NODES.stringNode(pick(random, "", "..", "../../etc", "/", "a/b", "x\u0000y", "\u0007bell", "tab\there",
                    "new\nline", "\u202Erlo", "😀", "a".repeat(5000), "C:\\win", "%n%s"));
            case 4 -> NODES.booleanNode(random.nextBoolean());
            case 5 -> deep(random.nextInt(60) + 1);
            case 6 -> NODES.objectNode().put("x", "y");
            case 7 -> NODES.arrayNode().add(NODES.nullNode());
            case 8 -> NODES.arrayNode();
            default -> null; // 9..11: remove, duplicate, nullify a list element
        };
        if (parent instanceof ObjectNode o) {
            if (kind == 9 || kind >= 10 && !o.path(key).isArray()) {
                o.remove(key);
                return "remove " + path;
            }
            if (kind >= 10) {
                ArrayNode list = (ArrayNode) o.path(key);
                if (list.isEmpty()) {
                    list.addNull();
                } else if (kind == 10) {
                    list.add(list.get(0).deepCopy());
                } else {
                    list.set(random.nextInt(list.size()), NODES.nullNode());
                }
                return (kind == 10 ? "duplicate first element of " : "null element in ") + path;
            }
            o.set(key, value);
        } else if (parent instanceof ArrayNode a) {
            int i = Integer.parseInt(key);
            if (kind >= 9) {
                a.remove(i);
                return "remove " + path;
            }
            a.set(i, value);
        }
        return "set " + path + " = " + (value == null ? "null" : abbreviate(value.toString()));
    }

    private static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "…" : s;
    }

    @SafeVarargs
    private static <T> T pick(Random random, T... values) {
        return values[random.nextInt(values.length)];
    }

    private static JsonNode deep(int depth) {
        JsonNode n = NODES.numberNode(1);
        for (int i = 0; i < depth; i++) {
            n = NODES.arrayNode().add(n);
        }
        return n;
    }

    /** Every field and element below the root: {display path, parent pointer, key or index}. */
    private static void collect(JsonNode node, String pointer, List<String[]> out) {
        if (node instanceof ObjectNode o) {
            for (String name : o.propertyNames()) {
                out.add(new String[] {pointer + "/" + name, pointer, name});
                collect(o.get(name), pointer + "/" + name, out);
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                out.add(new String[] {pointer + "/" + i, pointer, Integer.toString(i)});
                collect(a.get(i), pointer + "/" + i, out);
            }
        }
    }

    private static JsonNode at(JsonNode root, String pointer) {
        return pointer.isEmpty() ? root : root.at(pointer.replace("~", "~0"));
    }

    /** Live raw_exec task processes (launch shims) of this alloc under the agent's data dir. */
    static int liveTaskProcesses(String allocId) {
        int n = 0;
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path proc : procs) {
                try {
                    String cmdline = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8);
                    String stat = Files.readString(proc.resolve("stat"));
                    if (cmdline.contains(dataDir.toString()) && cmdline.contains(allocId) && !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z")) {
                        n++;
                    }
                } catch (IOException | RuntimeException gone) {
                    // the process went away
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return n;
    }
}
