package dev.berth.state;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;

/**
 * Whether this host has a processor to spare right now, for work that only pays when it runs beside the start rather
 * than instead of it ({@link FlywayRehearsal}): at least two processors, and the kernel's CPU pressure over the last
 * 10 s ({@code some avg10} of {@code /proc/pressure/cpu}: the share of time some runnable task waited for a processor)
 * under {@link #MAX_PRESSURE} percent; without pressure figures, a one-minute load average under the processors but
 * one. On a busy host a second thread of start-up work takes processor time from the start itself and delays it more
 * than it saves.
 *
 * @param processors the processors this JVM may use
 * @param pressure   {@code some avg10} in percent, if the kernel reports it
 * @param load       the one-minute load average, negative if unknown
 */
record CpuHeadroom(int processors, OptionalDouble pressure, double load) {

    /** {@code some avg10} below which a processor counts as spare. */
    static final double MAX_PRESSURE = 20.0;
    private static final Path PRESSURE = Path.of("/proc/pressure/cpu");

    static CpuHeadroom now() {
        return new CpuHeadroom(Runtime.getRuntime().availableProcessors(), pressure(PRESSURE),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    boolean spare() {
        if (processors < 2) {
            return false;
        }
        if (pressure.isPresent()) {
            return pressure.getAsDouble() < MAX_PRESSURE;
        }
        return load >= 0 && load < processors - 1;
    }

    /** {@code some avg10} of a pressure file ({@code some avg10=1.23 avg60=... total=...}), if readable. */
    static OptionalDouble pressure(Path file) {
        try {
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith("some ")) {
                    for (String field : line.split(" ")) {
                        if (field.startsWith("avg10=")) {
                            return OptionalDouble.of(Double.parseDouble(field.substring("avg10=".length())));
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // no PSI (kernel without it, or a container that hides it): the load average decides
        }
        return OptionalDouble.empty();
    }
}
