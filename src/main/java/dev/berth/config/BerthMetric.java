package dev.berth.config;

import java.util.Objects;

/**
 * One metric, named once for each {@link MetricsNaming} mode. Build it with {@link #of} and the {@code with…}
 * methods; pass it to {@link BerthMetrics} to register a meter.
 *
 * <p>Naming contract:
 * <ul>
 *   <li>{@code name} is the Prometheus-convention name in Micrometer's dotted form, {@code berth.} prefixed and
 *       <em>without</em> the unit ({@code berth.host.memory.total}); the Prometheus registry appends the
 *       {@code baseUnit} ({@code berth_host_memory_total_bytes}) and, for counters, {@code _total}.</li>
 *   <li>{@code nomadName} is Nomad's go-metrics key ({@code nomad.client.host.memory.total}); in {@code nomad} mode it
 *       is registered without a base unit, so it becomes {@code nomad_client_host_memory_total}. The Prometheus Java
 *       client strips a trailing {@code _total} from a gauge ({@code nomad_client_host_memory}); Nomad's exact name is
 *       written beside it, untyped ({@code NomadTotalNames}). Counters always get {@code _total} appended.</li>
 *   <li>Either name may be {@code null}: the metric then exists only in the other mode.</li>
 *   <li>{@code prometheusScale} converts the value reported by the caller (Nomad's unit) into the base unit for
 *       {@code prometheus} mode, e.g. {@code 0.01} for a percentage exported as a ratio. Nomad mode always gets the
 *       value unchanged.</li>
 * </ul>
 *
 * @param name            Prometheus-mode name (dotted, no unit), or {@code null} when Nomad-only
 * @param baseUnit        base unit for Prometheus mode ({@code bytes}, {@code seconds}, {@code ratio}…), or {@code null}
 * @param nomadName       Nomad-mode name, or {@code null} when there is no Nomad equivalent
 * @param description     HELP text in Prometheus mode (Nomad mode uses the name itself, as go-metrics does)
 * @param prometheusScale factor applied to values in Prometheus mode
 */
public record BerthMetric(String name, String baseUnit, String nomadName, String description, double prometheusScale) {

    public BerthMetric {
        if (name == null && nomadName == null) {
            throw new IllegalArgumentException("'name' and 'nomadName' must not both be null");
        }
        if (name != null && !name.startsWith("berth.")) {
            throw new IllegalArgumentException("'name' must start with 'berth.', was '" + name + "'");
        }
        if (nomadName != null && !nomadName.startsWith("nomad.")) {
            throw new IllegalArgumentException("'nomadName' must start with 'nomad.', was '" + nomadName + "'");
        }
        description = Objects.requireNonNullElse(description, "");
        if (!(prometheusScale > 0) || Double.isInfinite(prometheusScale)) {
            throw new IllegalArgumentException("'prometheusScale' must be a positive number, was " + prometheusScale);
        }
    }

    /** A metric with the same meaning in both modes; no unit, scale 1. */
    public static BerthMetric of(String name, String nomadName, String description) {
        return new BerthMetric(name, null, nomadName, description, 1.0);
    }

    /** A metric that exists only under Prometheus naming. */
    public static BerthMetric prometheusOnly(String name, String description) {
        return new BerthMetric(name, null, null, description, 1.0);
    }

    /** A metric that exists only under Nomad naming (e.g. Nomad's {@code *_total_ticks_count} counters). */
    public static BerthMetric nomadOnly(String nomadName) {
        return new BerthMetric(null, null, nomadName, nomadName, 1.0);
    }

    /** Sets the Prometheus-mode base unit ({@code io.micrometer.core.instrument.binder.BaseUnits}). */
    public BerthMetric withBaseUnit(String unit) {
        return new BerthMetric(name, unit, nomadName, description, prometheusScale);
    }

    /** The caller reports percent (0–100, as Nomad); Prometheus mode exports a ratio (0–1) with unit {@code ratio}. */
    public BerthMetric percentAsRatio() {
        return new BerthMetric(name, "ratio", nomadName, description, 0.01);
    }

    /** The caller reports MiB/MB-style values; Prometheus mode multiplies by {@code factor} (e.g. 1 MiB → bytes). */
    public BerthMetric withPrometheusScale(double factor, String unit) {
        return new BerthMetric(name, unit, nomadName, description, factor);
    }

    /** The name used in the given mode, or {@code null} when the metric does not exist there. */
    public String nameFor(MetricsNaming naming) {
        return naming == MetricsNaming.NOMAD ? nomadName : name;
    }
}
