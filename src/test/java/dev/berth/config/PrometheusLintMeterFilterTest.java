package dev.berth.config;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PrometheusLintMeterFilterTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    {
        registry.config().meterFilter(new PrometheusLintMeterFilter());
    }

    @Test
    void fillsMissingHelpWithTheNameAndKeepsGivenDescriptions() {
        Counter.builder("tomcat.sessions.created").register(registry);
        Counter.builder("berth.x").description("explained").register(registry);

        assertThat(registry.get("tomcat.sessions.created").counter().getId().getDescription()).isEqualTo("tomcat.sessions.created");
        assertThat(registry.get("berth.x").counter().getId().getDescription()).isEqualTo("explained");
    }

    @Test
    void dropsMetersInAbbreviatedUnitsAndRenamesTheCountGauge() {
        Counter.builder("jvm.compilation.time").baseUnit("ms").register(registry);
        Counter.builder("process.cpu.time").baseUnit("ns").register(registry);
        Gauge.builder("system.cpu.count", () -> 2).register(registry);

        assertThat(registry.getMeters()).extracting(m -> m.getId().getName()).containsExactly("system.cpus");
    }
}
