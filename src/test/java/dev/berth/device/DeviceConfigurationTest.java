package dev.berth.device;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

import dev.berth.config.BerthMetrics;
import dev.berth.config.BerthProperties;
import dev.berth.config.MetricsNaming;
import dev.berth.device.example.ExampleDeviceConfiguration;
import dev.berth.device.example.ExampleDevicePlugin;
import dev.berth.device.nvidia.NvidiaDeviceConfiguration;
import dev.berth.device.nvidia.NvidiaDevicePlugin;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The {@code berth.devices.*} keys switch the plugins on and configure them. */
class DeviceConfigurationTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties({ DeviceProperties.class, BerthProperties.class })
    static class Support {

        @Bean
        Clock clock() {
            return Clock.systemUTC();
        }

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        BerthMetrics berthMetrics(MeterRegistry registry) {
            return new BerthMetrics(registry, MetricsNaming.PROMETHEUS, "node1", "node-id", "dc1", "");
        }

        @Bean
        DeviceReservationStore store() {
            return new InMemoryReservationStore();
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(Support.class, DeviceConfiguration.class, ExampleDeviceConfiguration.class,
                    NvidiaDeviceConfiguration.class);

    @TempDir
    Path dir;

    @Test
    void noPluginRunsByDefault() {
        runner.run((context) -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(ExampleDevicePlugin.class).doesNotHaveBean(NvidiaDevicePlugin.class);
            DeviceProperties properties = context.getBean(DeviceProperties.class);
            assertThat(properties.statsInterval()).hasSeconds(5);
            assertThat(properties.nvidia().smiPath()).isEqualTo("nvidia-smi");
            assertThat(context.getBean(DeviceManager.class).devices()).isEmpty();
        });
    }

    @Test
    void theExamplePluginFingerprintsItsDirectoryAndPublishesToListeners() throws Exception {
        java.nio.file.Files.writeString(dir.resolve("dev0"), "");
        List<List<DeviceGroup>> published = new java.util.concurrent.CopyOnWriteArrayList<>();
        runner.withPropertyValues("berth.devices.example.enabled=true", "berth.devices.example.dir=" + dir,
                "berth.devices.example.vendor=acme", "berth.devices.example.poll-interval=50ms")
                .withBean(DeviceUpdateListener.class, () -> published::add)
                .run((context) -> {
                    assertThat(context).hasNotFailed().hasSingleBean(ExampleDevicePlugin.class);
                    await().until(() -> !published.isEmpty());
                    assertThat(published.getLast().getFirst().key()).isEqualTo(new DeviceGroupKey("acme", "file", "example"));
                });
    }

    @Test
    void anEnabledExamplePluginNeedsADirectory() {
        runner.withPropertyValues("berth.devices.example.enabled=true").run((context) -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessage("'berth.devices.example.dir' must be set when the example plugin is enabled"));
    }

    @Test
    void intervalsMustBePositive() {
        runner.withPropertyValues("berth.devices.stats-interval=0s").run((context) -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessage("'berth.devices.stats-interval' must be positive, was PT0S"));
    }

    @Test
    void theNvidiaPluginIsEnabledByProperty() {
        runner.withPropertyValues("berth.devices.nvidia.enabled=true", "berth.devices.nvidia.smi-path=/nonexistent/nvidia-smi",
                "berth.devices.nvidia.ignored-gpu-ids=GPU-1,GPU-2")
                .run((context) -> {
                    assertThat(context).hasNotFailed().hasSingleBean(NvidiaDevicePlugin.class);
                    assertThat(context.getBean(DeviceProperties.class).nvidia().ignoredGpuIds()).containsExactly("GPU-1", "GPU-2");
                });
    }

    @Test
    void healthPolicyProcessStatsAndTheJobMappingDirectoryBind() throws Exception {
        Path smi = dev.berth.device.nvidia.NvidiaTestFixtures.install(dir);
        runner.withUserConfiguration(dev.berth.device.nvidia.NvidiaTestFixtures.mappingConfiguration())
                .withPropertyValues("berth.devices.on-unhealthy=RESTART", "berth.devices.health-hold-down=2m",
                        "berth.devices.nvidia.enabled=true", "berth.devices.nvidia.smi-path=" + smi,
                        "berth.devices.nvidia.pmon=true", "berth.devices.nvidia.job-mapping-dir=" + dir.resolve("map"),
                        "berth.devices.nvidia.job-mapping-format=job-alloc-task")
                .run((context) -> {
                    assertThat(context).hasNotFailed().hasSingleBean(dev.berth.device.nvidia.NvidiaJobMapping.class)
                            .hasSingleBean(DeviceUsage.class).hasSingleBean(DeviceUsageMetrics.class);
                    DeviceProperties properties = context.getBean(DeviceProperties.class);
                    assertThat(properties.onUnhealthy()).isEqualTo(DeviceProperties.OnUnhealthy.RESTART);
                    assertThat(properties.healthHoldDown()).hasMinutes(2);
                    assertThat(properties.nvidia().pmon()).isTrue();
                    assertThat(properties.nvidia().processStats()).isTrue();
                    assertThat(properties.nvidia().jobMappingFormat()).isEqualTo(DeviceProperties.JobMappingFormat.JOB_ALLOC_TASK);
                    assertThat(dir.resolve("map")).isDirectory();
                });
    }

    @Test
    void theJobMappingIsOffByDefaultAndAnUnknownHealthPolicyIsRefused() {
        runner.withUserConfiguration(dev.berth.device.nvidia.NvidiaTestFixtures.mappingConfiguration())
                .withPropertyValues("berth.devices.nvidia.enabled=true", "berth.devices.nvidia.smi-path=/nonexistent/nvidia-smi")
                .run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(dev.berth.device.nvidia.NvidiaJobMapping.class));
        runner.withPropertyValues("berth.devices.on-unhealthy=reboot").run((context) -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("reboot"));
    }
}
