package dev.berth.config;

import java.util.List;
import java.util.function.DoubleSupplier;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.NamingConvention;

/**
 * Nomad's gauges whose names end in {@code .total} ({@code nomad.client.host.memory.total},
 * {@code nomad.client.allocs.cpu.total_percent} is unaffected) keep that suffix in {@code nomad} naming mode, so Nomad's
 * dashboards find {@code nomad_client_host_memory_total}. Two obstacles and the fix for each:
 * <ul>
 *   <li>The Prometheus Java client strips {@code _total} (and {@code _info}, {@code _created}, {@code _bucket}) from
 *       every name it is given: {@link #convention} keeps the name of these meters as written.</li>
 *   <li>{@code promtool check metrics} refuses a <em>gauge</em> named {@code …_total} ("non-counter metrics should not
 *       have _total suffix") but accepts an untyped metric: these gauges are registered as meters of type
 *       {@link Meter.Type#OTHER}, which the registry exposes as {@code untyped}, one value per scrape, as a gauge.</li>
 * </ul>
 */
final class NomadTotalNames {

    private NomadTotalNames() {
    }

    static boolean isNomadTotal(MetricsNaming naming, String name) {
        return naming == MetricsNaming.NOMAD && name.endsWith(".total");
    }

    /** Registers the value as an untyped meter; returns it seen as a {@link Gauge} (value and ID) for its owner. */
    static Gauge untypedGauge(MeterRegistry registry, String name, String description, Tags tags, DoubleSupplier value) {
        Meter meter = Meter.builder(name, Meter.Type.OTHER, List.of(new Measurement(value::getAsDouble, Statistic.VALUE)))
                .description(description).tags(tags).register(registry);
        return new Gauge() {
            @Override
            public double value() {
                return value.getAsDouble();
            }

            @Override
            public Id getId() {
                return meter.getId();
            }
        };
    }

    /** A naming convention that writes {@code OTHER} meters named {@code nomad.….total} as snake case, suffix kept. */
    static NamingConvention convention(NamingConvention delegate) {
        return new NamingConvention() {
            @Override
            public String name(String name, Meter.Type type, String baseUnit) {
                if (type == Meter.Type.OTHER && name.startsWith("nomad.") && name.endsWith(".total")) {
                    return NamingConvention.snakeCase.name(name, type, baseUnit);
                }
                return delegate.name(name, type, baseUnit);
            }

            @Override
            public String tagKey(String key) {
                return delegate.tagKey(key);
            }

            @Override
            public String tagValue(String value) {
                return delegate.tagValue(value);
            }
        };
    }
}
