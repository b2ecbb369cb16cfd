package dev.berth.monitoring;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.support.Promtool;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code BerthDeviceEccErrors} with {@code promtool test rules}: fires for a device that counted uncorrected ECC errors, in
 * either naming mode, names the device (its series' own {@code instance}, kept by Prometheus as {@code exported_instance});
 * quiet for a device at zero.
 */
class DeviceEccAlertTest {

    @TempDir
    Path tmp;

    @Test
    void firesForADeviceWithUncorrectedEccErrorsInBothNamingModes() throws Exception {
        String test = """
                rule_files:
                  - %s
                evaluation_interval: 1m
                tests:
                  - interval: 1m
                    input_series:
                      - series: 'berth_device_ecc_errors{job="berth",node="n1",datacenter="dc1",vendor="nvidia",type="gpu",model="Tesla T4",instance="10.0.0.1:4646",exported_instance="GPU-1"}'
                        values: '0 0 2 2 2'
                      - series: 'nomad_client_device_ecc_errors{job="berth",node="n2",datacenter="dc1",vendor="nvidia",type="gpu",model="A100",instance="10.0.0.2:4646",exported_instance="GPU-2"}'
                        values: '1x4'
                      - series: 'berth_device_ecc_errors{job="berth",node="n3",datacenter="dc1",vendor="nvidia",type="gpu",model="Tesla T4",instance="10.0.0.3:4646",exported_instance="GPU-3"}'
                        values: '0x4'
                    alert_rule_test:
                      - eval_time: 1m
                        alertname: BerthDeviceEccErrors
                        exp_alerts:
                          - exp_labels: {severity: critical, node: n2, datacenter: dc1, vendor: nvidia, type: gpu, model: A100, device: GPU-2}
                            exp_annotations:
                              summary: "nvidia A100 GPU-2 on n2 counted 1 uncorrected ECC error(s)"
                              description: "Uncorrected memory errors corrupt what runs on the device; drain its allocations and reset or replace it (the count resets when the driver reloads)."
                      - eval_time: 3m
                        alertname: BerthDeviceEccErrors
                        exp_alerts:
                          - exp_labels: {severity: critical, node: n1, datacenter: dc1, vendor: nvidia, type: gpu, model: Tesla T4, device: GPU-1}
                            exp_annotations:
                              summary: "nvidia Tesla T4 GPU-1 on n1 counted 2 uncorrected ECC error(s)"
                              description: "Uncorrected memory errors corrupt what runs on the device; drain its allocations and reset or replace it (the count resets when the driver reloads)."
                          - exp_labels: {severity: critical, node: n2, datacenter: dc1, vendor: nvidia, type: gpu, model: A100, device: GPU-2}
                            exp_annotations:
                              summary: "nvidia A100 GPU-2 on n2 counted 1 uncorrected ECC error(s)"
                              description: "Uncorrected memory errors corrupt what runs on the device; drain its allocations and reset or replace it (the count resets when the driver reloads)."
                """.formatted(ServiceCheckAlertTest.RULES);
        Promtool.Result result = Promtool.testRules(tmp, "ecc-alert-test.yml", test);
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS");
    }
}
