package dev.berth.alloc;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.admission.NodeCapacity;
import dev.berth.alloc.runner.AllocRunner;
import dev.berth.alloc.runner.RunnerHarness;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricsNaming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Alloc meters in both naming modes against a SimpleMeterRegistry. */
class AllocMetricsTest {

    @TempDir
    Path dir;

    static final NodeCapacity CAPACITY = new NodeCapacity() {
        @Override
        public long cpuMhz() {
            return 4000;
        }

        @Override
        public long memoryMb() {
            return 8192;
        }
    };

    @Test
    void prometheusAndNomadNames() throws Exception {
        try (RunnerHarness h = new RunnerHarness(dir)) {
            AllocRunner r = h.runner(RunnerHarness.alloc("m1", "service", null, RunnerHarness.task("t", Map.of("run_for", "1h"))));
            r.start();
            await().until(() -> r.record().clientStatus().equals(ClientStatus.RUNNING));
            SimpleMeterRegistry prom = new SimpleMeterRegistry();
            AllocMetrics pm = new AllocMetrics(new BerthMetrics(prom, MetricsNaming.PROMETHEUS, "h1", "n1", "dc1", ""), () -> List.of(r), CAPACITY,
                    () -> new long[] {100, 64});
            pm.restarted();
            pm.started(Duration.ofMillis(120));
            pm.hook("task_dir", "prestart", 1_000_000);
            assertThat(prom.get("berth.client.allocations").tag("status", "running").gauge().value()).isEqualTo(1);
            assertThat(prom.get("berth.client.allocations").tag("status", "failed").gauge().value()).isZero();
            assertThat(prom.get("berth.client.tasks").tag("state", "running").gauge().value()).isEqualTo(1);
            assertThat(prom.get("berth.client.unallocated.cpu").gauge().value()).isEqualTo(3900);
            assertThat(prom.get("berth.client.allocated.memory").gauge().value()).isEqualTo(64.0 * 1024 * 1024);
            assertThat(prom.get("berth.client.task.restarts").counter().count()).isEqualTo(1);
            assertThat(prom.get("berth.client.alloc.start.latency").timer().totalTime(java.util.concurrent.TimeUnit.MILLISECONDS)).isEqualTo(120);
            assertThat(prom.get("berth.client.hook.duration").tags("hook", "task_dir", "phase", "prestart").timer().count()).isEqualTo(1);

            SimpleMeterRegistry nomad = new SimpleMeterRegistry();
            AllocMetrics nm = new AllocMetrics(new BerthMetrics(nomad, MetricsNaming.NOMAD, "h1", "n1", "dc1", ""), () -> List.of(r), CAPACITY,
                    () -> new long[] {100, 64});
            nm.oomKilled();
            nm.hook("alloc_dir", "prerun", 1_000);
            assertThat(nomad.get("nomad.client.allocations.running").gauge().value()).isEqualTo(1);
            assertThat(nomad.get("nomad.client.allocations.terminal").gauge().value()).isZero();
            assertThat(nomad.get("nomad.client.unallocated.memory").gauge().value()).isEqualTo(8128);
            assertThat(nomad.get("nomad.client.allocs.oom_killed").counter().count()).isEqualTo(1);
            assertThat(nomad.get("nomad.client.alloc_hook.prerun.elapsed").tag("hook_name", "alloc_dir").tag("host", "h1").timer().count())
                    .isEqualTo(1);
            assertThat(nomad.get("nomad.client.allocations.running").tag("node_id", "n1").tag("node_class", "none").gauge()).isNotNull();
            assertThat(nomad.find("berth.client.allocations").gauge()).isNull();
        }
    }
}
