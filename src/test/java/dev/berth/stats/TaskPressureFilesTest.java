package dev.berth.stats;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricsNaming;
import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.host.cgroup.TaskCgroup;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

class TaskPressureFilesTest {

    private final DescriptorBudget budget = DescriptorBudget.ofProcessLimit();

    @Test
    void theRecordedFilesReadAsTaskPressureReadsThem() throws Exception {
        for (Path dir : List.of(TaskPressureTest.V2, TaskPressureTest.V2_OLD_KERNEL, TaskPressureTest.V1)) {
            try (TaskPressureFiles files = new TaskPressureFiles(dir, budget)) {
                assertThat(files.read()).as(dir.toString()).isEqualTo(TaskPressure.read(dir));
                assertThat(files.read()).as("read again").isEqualTo(TaskPressure.read(dir));
            }
        }
    }

    @Test
    void bytesParseToExactlyWhatTheStringParserGives() {
        List<String> texts = new ArrayList<>(List.of(
                "some avg10=1.52 avg60=0.87 avg300=0.21 total=4861227\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
                "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
                "  some   avg10=99.99  avg60=100.00 avg300=5.5 total=18446744073  \n\nfull avg10=1. avg60=.5 total=7\n",
                "some avg10=1e2 avg60=+3.25 avg300=NaN total=+12 extra=9 junk\n",
                "some avg10=12345678901234567.5 avg60=0.1234567890123456789 total=123456789012345678\n",
                "full avg10=3.00 total=3\nsome avg10=2.00 total=2\nsome avg10=4.00 total=4\n",
                "some\tavg10=1.00 total=1\n",
                "some avg10=2.50 avg10=3.75 total=5\r\n",
                "some total=\n",
                "some avg10=. total=1\n",
                "some avg10=1.0.0 total=1\n",
                "some \nfull avg10=1.00\n",
                "garbage\n",
                ""));
        Random random = new Random(15);
        for (int i = 0; i < 2_000; i++) {
            StringBuilder text = new StringBuilder();
            for (String kind : random.nextBoolean() ? List.of("some", "full") : List.of("some")) {
                text.append(kind);
                for (String key : List.of("avg10", "avg60", "avg300")) {
                    text.append(' ').append(key).append('=').append(random.nextInt(10_000)).append('.')
                            .append(String.format("%02d", random.nextInt(100)));
                }
                text.append(" total=").append(random.nextLong() & Long.MAX_VALUE >> random.nextInt(63)).append('\n');
            }
            texts.add(text.toString());
        }
        for (String text : texts) {
            byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
            byte[] padded = java.util.Arrays.copyOf(bytes, bytes.length + 7); // a reused buffer has more room than bytes
            Throwable expectedFailure = catchThrowable(() -> TaskPressure.parse(text));
            if (expectedFailure != null) {
                assertThatThrownBy(() -> TaskPressureFiles.parse(padded, bytes.length)).as(text)
                        .isInstanceOf(expectedFailure.getClass()).hasMessage(expectedFailure.getMessage());
            } else {
                assertThat(TaskPressureFiles.parse(padded, bytes.length)).as(text).isEqualTo(TaskPressure.parse(text));
            }
        }
    }

    @Test
    void keptOpenFilesAreReadAfreshEachTickAndClosedWhenTheTaskGoes(@TempDir Path tmp) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("cg"));
        Files.writeString(dir.resolve("cpu.pressure"), "some avg10=1.00 avg60=0.00 avg300=0.00 total=10\n");
        Files.writeString(dir.resolve("io.pressure"), "some avg10=2.00 avg60=0.00 avg300=0.00 total=20\n"
                + "full avg10=1.00 avg60=0.00 avg300=0.00 total=15\n");
        TaskPressureCollector collector = new TaskPressureCollector(
                new BerthMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), MetricsNaming.PROMETHEUS, "vm", "id", "dc1", ""), budget);
        int heldBefore = budget.held();

        collector.update(snapshotOf(dir, 1));
        assertThat(collector.pressure("a1", "web")).hasValueSatisfying(p -> {
            assertThat(p.cpu().some().totalMicros()).isEqualTo(10);
            assertThat(p.memory()).isNull(); // no memory.pressure
            assertThat(p.io().full().avg10()).isEqualTo(1.0);
        });
        assertThat(budget.held()).as("two existing files kept open").isEqualTo(heldBefore + 2);

        Files.writeString(dir.resolve("cpu.pressure"), "some avg10=7.25 avg60=0.00 avg300=0.00 total=99\n");
        collector.update(snapshotOf(dir, 2));
        TaskPressure expected = TaskPressure.read(dir);
        assertThat(collector.pressure("a1", "web")).hasValueSatisfying(p -> {
            assertThat(p.cpu().some()).isEqualTo(new TaskPressure.Line(7.25, 0, 0, 99));
            assertThat(p).isEqualTo(expected);
        });

        collector.update(Map.of());
        assertThat(collector.pressure("a1", "web")).isEmpty();
        assertThat(budget.held()).as("the task's files given back").isEqualTo(heldBefore);
    }

    private static Map<TaskStatsTarget.TaskKey, TaskStatsSnapshot> snapshotOf(Path dir, long ts) {
        TaskStatsTarget target = new TaskStatsTarget("a1", "web", "job", "grp", "default", CgroupVersion.V2,
                Map.of(TaskCgroup.UNIFIED, dir), 0, 0);
        return Map.of(target.key(), new TaskStatsSnapshot(target, ts, TaskResourceUsage.NONE, Map.of()));
    }
}
