package dev.berth.monitoring;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.support.Promtool;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code BerthServiceChecksFailing} with {@code promtool test rules}: fires after 5 minutes of failing checks in either
 * naming mode, stays quiet for passing checks and for a failure shorter than 5 minutes.
 */
class ServiceCheckAlertTest {

    static final Path RULES = Path.of("helm/berth/files/prometheus/berth-rules.yml").toAbsolutePath();

    @TempDir
    Path tmp;

    @Test
    void firesForFailingChecksInBothNamingModes() throws Exception {
        String test = """
                rule_files:
                  - %s
                evaluation_interval: 1m
                tests:
                  - interval: 1m
                    input_series:
                      - series: 'berth_service_checks{job="berth",node="n1",datacenter="dc1",status="failure"}'
                        values: '2x10'
                      - series: 'berth_service_checks{job="berth",node="n1",datacenter="dc1",status="success"}'
                        values: '5x10'
                      - series: 'nomad_client_service_checks{job="berth",node="n2",datacenter="dc1",host="n2",status="failure"}'
                        values: '1x10'
                      - series: 'berth_service_checks{job="berth",node="n3",datacenter="dc1",status="failure"}'
                        values: '0x10'
                      - series: 'berth_service_checks{job="berth",node="n4",datacenter="dc1",status="failure"}'
                        values: '1 1 1 0 0 0 0 0 0 0 0'
                    alert_rule_test:
                      - eval_time: 3m
                        alertname: BerthServiceChecksFailing
                        exp_alerts: []
                      - eval_time: 6m
                        alertname: BerthServiceChecksFailing
                        exp_alerts:
                          - exp_labels: {severity: warning, node: n1, datacenter: dc1}
                            exp_annotations:
                              summary: "2 service check(s) failing on n1"
                              description: "Checks of node-local (provider = \\"nomad\\") services have failed for 5 minutes; GET /v1/client/allocation/<id>/checks on the node shows which and why (docs/checks.md)."
                          - exp_labels: {severity: warning, node: n2, datacenter: dc1}
                            exp_annotations:
                              summary: "1 service check(s) failing on n2"
                              description: "Checks of node-local (provider = \\"nomad\\") services have failed for 5 minutes; GET /v1/client/allocation/<id>/checks on the node shows which and why (docs/checks.md)."
                """.formatted(RULES);
        Promtool.Result result = Promtool.testRules(tmp, "checks-alert-test.yml", test);
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS");
    }
}
