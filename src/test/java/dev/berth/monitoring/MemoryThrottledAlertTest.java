package dev.berth.monitoring;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.support.Promtool;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code BerthTaskMemoryThrottled} with {@code promtool test rules}: fires for a task whose cgroup counts more than one
 * {@code memory.high} event per second for 10 minutes, in either naming mode; stays quiet for a task throttled only
 * briefly, for a task throttled less often, and for other events (an OOM kill has its own alert).
 */
class MemoryThrottledAlertTest {

    static final Path RULES = Path.of("helm/berth/files/prometheus/berth-rules.yml").toAbsolutePath();

    @TempDir
    Path tmp;

    @Test
    void firesForSustainedThrottlingInBothNamingModes() throws Exception {
        String labels = "job=\"berth\",node=\"%s\",datacenter=\"dc1\",namespace=\"default\",task_group=\"g\",task=\"%s\",alloc_id=\"a%s\"";
        String test = """
                rule_files:
                  - %s
                evaluation_interval: 1m
                tests:
                  - interval: 1m
                    input_series:
                      - series: 'berth_task_memory_events_total{%s,event="high"}'
                        values: '0+300x25'
                      - series: 'nomad_client_allocs_memory_events{%s,host="n2",event="high"}'
                        values: '0+600x25'
                      - series: 'berth_task_memory_events_total{%s,event="high"}'
                        values: '0+300x4 1200x21'
                      - series: 'berth_task_memory_events_total{%s,event="high"}'
                        values: '0+30x25'
                      - series: 'berth_task_memory_events_total{%s,event="oom_kill"}'
                        values: '0+300x25'
                    alert_rule_test:
                      - eval_time: 8m
                        alertname: BerthTaskMemoryThrottled
                        exp_alerts: []
                      - eval_time: 20m
                        alertname: BerthTaskMemoryThrottled
                        exp_alerts:
                          - exp_labels: {severity: warning, event: high, node: n1, datacenter: dc1, namespace: default, job: berth, task_group: g, task: web, alloc_id: a1}
                            exp_annotations:
                              summary: "Task berth/web on n1 is throttled at its memory.high"
                              description: "Its cgroup counted 5 memory.high events per second for 10 minutes: it runs above its memory reservation, close to memory_max, and the kernel reclaims and slows it down; raise memory (or memory_max) before it is OOM-killed (docs/oom-and-pressure.md)."
                          - exp_labels: {severity: warning, event: high, node: n2, datacenter: dc1, namespace: default, job: berth, task_group: g, task: db, alloc_id: a2}
                            exp_annotations:
                              summary: "Task berth/db on n2 is throttled at its memory.high"
                              description: "Its cgroup counted 10 memory.high events per second for 10 minutes: it runs above its memory reservation, close to memory_max, and the kernel reclaims and slows it down; raise memory (or memory_max) before it is OOM-killed (docs/oom-and-pressure.md)."
                """.formatted(RULES, labels.formatted("n1", "web", "1"), labels.formatted("n2", "db", "2"),
                labels.formatted("n3", "brief", "3"), labels.formatted("n4", "rare", "4"), labels.formatted("n5", "oom", "5"));
        Promtool.Result result = Promtool.testRules(tmp, "memory-throttled-alert-test.yml", test);
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS");
    }
}
