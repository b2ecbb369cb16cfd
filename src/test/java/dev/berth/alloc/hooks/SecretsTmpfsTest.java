package dev.berth.alloc.hooks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.fs.AllocDir;
import dev.berth.alloc.fs.SecretsTmpfs;
import dev.berth.alloc.runner.AllocRunner;
import dev.berth.alloc.runner.RunnerHarness;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.ResourcesSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.driver.mock.MockDriver;
import dev.berth.host.Tmpfs;

import static dev.berth.alloc.runner.RunnerHarness.alloc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/** secrets/ and private/ on tmpfs against the real kernel (we are root here): mounted, size-limited, unmounted on destroy. */
class SecretsTmpfsTest {

    @TempDir
    Path dir;
    RunnerHarness h;

    @BeforeEach
    void setUp() {
        assumeThat(Tmpfs.canMount()).as("root on Linux").isTrue();
        h = new RunnerHarness(dir);
        h.secretsTmpfs = new SecretsTmpfs(true);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (h != null) {
            h.close();
        }
        // never leave a mount behind, whatever the test did (JUnit could not delete the temp dir either)
        Tmpfs.unmountUnder(dir);
        assertThat(Tmpfs.mountsUnder(dir)).isEmpty();
    }

    private static TaskSpec task(String name, Integer secretsMb) {
        return new TaskSpec(name, MockDriver.NAME, Map.of("run_for", "1h"), null,
                new ResourcesSpec(100, 64, null, null, null, secretsMb), null, null, null, null, null, null, null);
    }

    private static List<String> mountinfo(Path p) throws IOException {
        String real = p.toRealPath().toString();
        return Files.readAllLines(Path.of("/proc/self/mountinfo")).stream().filter(l -> l.split(" ")[4].equals(real)).toList();
    }

    @Test
    void secretsAndPrivateAreSizeLimitedTmpfsAndGoneAfterDestroy() throws Exception {
        AllocRunner r = h.runner(alloc("tm1", "service", null, task("web", 2), task("db", null)));
        r.start();
        await().until(() -> r.taskStates().values().stream().allMatch(s -> s.running()));

        Path web = r.dir().taskDir("web");
        assertThat(mountinfo(web.resolve("secrets"))).singleElement().asString()
                .contains(" - tmpfs tmpfs ").contains("size=2048k").contains("mode=777").contains("noswap")
                .contains("nosuid").contains("nodev");
        assertThat(mountinfo(web.resolve("private"))).singleElement().asString().contains("size=1024k");
        assertThat(mountinfo(r.dir().taskDir("db").resolve("secrets"))).singleElement().asString().contains("size=1024k");

        // a write over the size limit fails with ENOSPC
        Path secrets = r.dir().taskDir("db").resolve("secrets");
        Files.write(secrets.resolve("small"), new byte[512 * 1024]);
        assertThatExceptionOfType(IOException.class)
                .isThrownBy(() -> Files.write(secrets.resolve("big"), new byte[1024 * 1024]))
                .withMessageContaining("No space left on device");

        r.destroy().get(30, TimeUnit.SECONDS);
        h.runners.remove(r);
        assertThat(r.dir().path()).doesNotExist();
        assertThat(Tmpfs.mountsUnder(dir)).isEmpty();
    }

    @Test
    void mountingAgainIsANoOp() throws Exception {
        AllocationSpec spec = alloc("tm2", "service", null, task("t", null));
        AllocDir allocDir = new AllocDir(dir, spec.id());
        TaskDirHook hook = new TaskDirHook(h.clock, new SecretsTmpfs(true));
        TaskHookContext ctx = new TaskHookContext(spec, spec.group().orElseThrow(), spec.group().orElseThrow().tasks().getFirst(),
                allocDir.path(), allocDir.taskDir("t"), h.mock, e -> { });
        hook.prestart(ctx);
        Files.writeString(allocDir.taskDir("t").resolve("secrets/token"), "s3cr3t");
        // as after an agent restart that runs the hook again: no second tmpfs stacked over the first
        hook.prestart(ctx);
        assertThat(mountinfo(allocDir.taskDir("t").resolve("secrets"))).hasSize(1);
        assertThat(mountinfo(allocDir.taskDir("t").resolve("private"))).hasSize(1);
        assertThat(allocDir.taskDir("t").resolve("secrets/token")).hasContent("s3cr3t");

        allocDir.destroy();
        assertThat(Tmpfs.mountsUnder(dir)).isEmpty();
        assertThat(allocDir.path()).doesNotExist();
    }

    @Test
    void turnedOffKeepsPlainDirectories() throws Exception {
        h.secretsTmpfs = SecretsTmpfs.disabled();
        AllocRunner r = h.runner(alloc("tm3", "service", null, task("t", null)));
        r.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> r.taskStates().get("t").running());
        assertThat(r.dir().taskDir("t").resolve("secrets")).isDirectory();
        assertThat(Tmpfs.mountsUnder(dir)).isEmpty();
    }
}
