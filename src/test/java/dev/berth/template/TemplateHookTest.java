package dev.berth.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.JobSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.spec.TemplateSpec;
import dev.berth.alloc.task.Interpolator;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.HookFailedException;
import dev.berth.alloc.task.TaskHooks.PrestartResult;
import dev.berth.config.Sleeper;
import dev.berth.events.Change;
import dev.berth.events.ChangeFeed;
import dev.berth.events.IndexStore;
import dev.berth.events.Indexed;
import dev.berth.events.NodeIndex;
import dev.berth.events.Topic;
import dev.berth.service.ServiceRegistration;
import dev.berth.service.ServiceRegistry;
import dev.berth.support.TestClock;
import dev.berth.variables.Variable;
import dev.berth.variables.VariableMeta;
import dev.berth.variables.WorkloadIdentity;
import dev.berth.variables.WorkloadVariables;

/** The hook on its own: rendering, the env template, failures, waiting for a missing variable and re-rendering on a change. */
class TemplateHookTest {

    @TempDir
    Path tmp;

    final TestClock clock = new TestClock();
    final ChangeFeed feed = new ChangeFeed(new NodeIndex(new IndexStore() {
        long high;

        @Override
        public long highWater() {
            return high;
        }

        @Override
        public void reserveThrough(long highWater) {
            high = highWater;
        }
    }));
    final Variables variables = new Variables();
    final ServiceRegistry services = new ServiceRegistry(feed);
    final List<TaskEvent> events = new CopyOnWriteArrayList<>();
    final TemplateHook hook = new TemplateHook(variables, services, feed, c -> new Interpolator(Map.of("NOMAD_TASK_NAME", "t"), Map.of()),
            key -> Optional.empty(), clock, Sleeper.system());
    TaskHookContext context;

    @AfterEach
    void stop() {
        if (context != null) {
            hook.stop(context);
        }
    }

    @Test
    void rendersFilesWithPermsAndTheEnvTemplatesVariables() throws Exception {
        variables.put("nomad/jobs/j", Map.of("user", "app"));
        PrestartResult r = hook.prestart(context(
                template("name={{ env \"NOMAD_TASK_NAME\" | toUpper }} user={{ (nomadVar \"nomad/jobs/j\").user }} sum={{ 2 | add 3 }}",
                        "local/app.conf", "0600", false),
                template("A={{ \"x,y\" | split \",\" | join \"-\" }}\n# comment\nB=\"quoted\"\n", "local/app.env", "0644", true)));
        Path conf = context.taskDir().resolve("local/app.conf");
        assertThat(Files.readString(conf)).isEqualTo("name=T user=app sum=5");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(conf))).isEqualTo("rw-------");
        assertThat(r.env()).containsExactlyInAnyOrderEntriesOf(Map.of("A", "x-y", "B", "quoted"));
        assertThat(r.done()).isFalse();
        assertThat(events).isEmpty();
    }

    @Test
    void anUnknownFunctionFailsTheTaskNamingIt() throws Exception {
        assertThatExceptionOfType(HookFailedException.class)
                .isThrownBy(() -> hook.prestart(context(template("{{ vault \"x\" }}", "local/x", "0644", false))))
                .satisfies(e -> {
                    assertThat(e.recoverable()).isFalse();
                    assertThat(e.event().type()).isEqualTo("Killing");
                    assertThat(e.event().failsTask()).isTrue();
                    assertThat(e.event().message()).isEqualTo("Template failed: template: local/x:1: function \"vault\" not defined");
                });
    }

    @Test
    void aDestinationThroughALinkOutOfTheAllocationIsRefused() throws Exception {
        TaskHookContext ctx = context(template("x", "local/out/f", "0644", false));
        Files.createDirectories(ctx.taskDir().resolve("local"));
        Files.createSymbolicLink(ctx.taskDir().resolve("local/out"), Files.createDirectories(tmp.resolve("outside")));
        assertThatExceptionOfType(HookFailedException.class).isThrownBy(() -> hook.prestart(ctx))
                .withMessageContaining("resolves outside of the allocation directory");
        assertThat(tmp.resolve("outside/f")).doesNotExist();
    }

    @Test
    void theFirstRenderWaitsForAMissingVariableAndAChangeReRenders() throws Exception {
        TaskHookContext ctx = context(new TemplateSpec(null, "local/pw", "pw={{ with nomadVar \"nomad/jobs/j\" }}{{ .pw }}{{ end }}",
                TemplateSpec.NOOP, null, null, 0L, null, null, null, null, null, null, null, null));
        CompletableFuture<PrestartResult> start = CompletableFuture.supplyAsync(() -> {
            try {
                return hook.prestart(ctx);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> events.stream().anyMatch(
                e -> e.type().equals("Template") && e.message().equals("Missing: nomad.var.block(nomad/jobs/j@default.global)")));
        assertThat(start).isNotDone();

        variables.put("nomad/jobs/j", Map.of("pw", "one"));
        start.get(10, java.util.concurrent.TimeUnit.SECONDS);
        Path file = ctx.taskDir().resolve("local/pw");
        assertThat(Files.readString(file)).isEqualTo("pw=one");

        variables.put("nomad/jobs/j", Map.of("pw", "two"));
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(file).equals("pw=two"));
    }

    @Test
    void aServiceTemplateReRendersWhenTheServiceRegisters() throws Exception {
        TaskHookContext ctx = context(new TemplateSpec(null, "local/up", "{{ range nomadService \"db\" }}{{ .Address }}:{{ .Port }}{{ end }}",
                TemplateSpec.NOOP, null, null, 0L, null, null, null, null, null, null, null, null));
        hook.prestart(ctx);
        Path file = ctx.taskDir().resolve("local/up");
        assertThat(Files.readString(file)).isEmpty();
        services.register(new ServiceRegistration("id1", "db", "default", "n", "dc1", "j", "a9", List.of(), "10.0.0.1", 5432, 0, 0, null));
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(file).equals("10.0.0.1:5432"));
    }

    @Test
    void aReRenderWaitsForChangesToSettleForTheWaitMinimum() throws Exception {
        List<Duration> waits = new CopyOnWriteArrayList<>();
        TemplateHook waiting = new TemplateHook(variables, services, feed, c -> new Interpolator(Map.of(), Map.of()), key -> Optional.empty(),
                clock, (d, cancel) -> {
                    waits.add(d);
                    return true;   // no further change within the minimum: settled
                });
        variables.put("nomad/jobs/j", Map.of("pw", "one"));
        TaskHookContext ctx = context(new TemplateSpec(null, "local/pw", "{{ (nomadVar \"nomad/jobs/j\").pw }}", TemplateSpec.NOOP, null,
                null, 0L, null, null, null, null, null, null, null, new TemplateSpec.WaitSpec(2_000_000_000L, 10_000_000_000L)));
        try {
            waiting.prestart(ctx);
            assertThat(waits).isEmpty();
            variables.put("nomad/jobs/j", Map.of("pw", "two"));
            Path file = ctx.taskDir().resolve("local/pw");
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(file).equals("two"));
            assertThat(waits).containsExactly(Duration.ofSeconds(2));
        } finally {
            waiting.stop(ctx);
        }
    }

    private static TemplateSpec template(String data, String destination, String perms, boolean env) {
        return new TemplateSpec(null, destination, data, null, null, null, 0L, perms, null, null, null, null, env, null, null);
    }

    private TaskHookContext context(TemplateSpec... templates) throws Exception {
        TaskSpec t = new TaskSpec("t", "raw_exec", Map.of(), null, null, null, null, null, null, null, null, null, null, null, null, null,
                List.of(templates));
        TaskGroupSpec g = new TaskGroupSpec("g", 1, List.of(t), null, null, null, null);
        AllocationSpec alloc = new AllocationSpec("a1", "j.g[0]", "default", "j",
                new JobSpec("j", "j", "service", "default", null, null, null, List.of(g)), "g", "run", 1L, null, null);
        Path allocDir = Files.createDirectories(tmp.resolve("a1"));
        context = new TaskHookContext(alloc, g, t, allocDir, Files.createDirectories(allocDir.resolve("t")), null, events::add);
        return context;
    }

    /** Variables in memory, each write published on the feed as the variables store does. */
    final class Variables implements WorkloadVariables {

        private final Map<String, Variable> byPath = new ConcurrentHashMap<>();

        void put(String path, Map<String, String> items) {
            long index = feed.currentIndex() + 1;
            byPath.put(path, new Variable(new VariableMeta("default", path, null, index, 0, index, 0), items));
            feed.publish(Topic.Variable, "VariableUpserted", path, "default", null);
        }

        @Override
        public Indexed<Optional<Variable>> read(WorkloadIdentity who, String path) {
            return new Indexed<>(Optional.ofNullable(byPath.get(path)), feed.currentIndex());
        }

        @Override
        public Indexed<List<VariableMeta>> list(WorkloadIdentity who, String prefix) {
            return new Indexed<>(byPath.values().stream().map(Variable::meta).filter(m -> m.path().startsWith(prefix)).toList(),
                    feed.currentIndex());
        }

        @Override
        public Predicate<Change> changes(WorkloadIdentity who) {
            return c -> c.topic() == Topic.Variable;
        }
    }
}
