package dev.berth.config;

import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;

/**
 * Keeps the whole exposition clean under {@code promtool check metrics}, including meters Berth does not own
 * (JVM, Tomcat, HTTP server). Measured problems with Micrometer 1.17's built-in meters and the fix for each:
 * <ul>
 *   <li>"no help text" (Tomcat sessions, http.server.requests): a meter without a description gets its own name as
 *       description, which is also what go-metrics does for Nomad's names.</li>
 *   <li>"metric names should not contain abbreviated units": {@code jvm.compilation.time} (ms) and
 *       {@code process.cpu.time} (ns) cannot be converted by a filter, so they are dropped
 *       ({@code process_cpu_usage} remains).</li>
 *   <li>"non-histogram and non-summary metrics should not have _count suffix": {@code system.cpu.count} is renamed
 *       {@code system.cpus}.</li>
 * </ul>
 */
public final class PrometheusLintMeterFilter implements MeterFilter {

    private static final Set<String> DENIED = Set.of("jvm.compilation.time", "process.cpu.time");
    private static final Map<String, String> RENAMED = Map.of("system.cpu.count", "system.cpus");

    @Override
    public MeterFilterReply accept(Meter.Id id) {
        return DENIED.contains(id.getName()) ? MeterFilterReply.DENY : MeterFilterReply.NEUTRAL;
    }

    @Override
    public Meter.Id map(Meter.Id id) {
        String name = RENAMED.getOrDefault(id.getName(), id.getName());
        String description = id.getDescription();
        if (description == null || description.isBlank()) {
            description = name;
        }
        if (name.equals(id.getName()) && description.equals(id.getDescription())) {
            return id;
        }
        return new Meter.Id(name, Tags.of(id.getTagsAsIterable()), id.getBaseUnit(),
                description, id.getType());
    }
}
