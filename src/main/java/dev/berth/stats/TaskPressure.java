package dev.berth.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A task's pressure-stall information (PSI) from its cgroup v2 directory: {@code cpu.pressure}, {@code memory.pressure}
 * and {@code io.pressure} (kernel ≥ 4.20 with PSI enabled). Each is {@code null} when the file is absent; cgroup v1 has
 * no PSI, so v1 tasks have none.
 *
 * @param cpu    share of time some (or all) of the task's runnable work waited for a CPU
 * @param memory the same for memory (reclaim, swap-in, refaults)
 * @param io     the same for block I/O
 */
public record TaskPressure(Pressure cpu, Pressure memory, Pressure io) {

    public static final TaskPressure NONE = new TaskPressure(null, null, null);

    public boolean isEmpty() {
        return cpu == null && memory == null && io == null;
    }

    /** The {@code some} and {@code full} lines of one pressure file; {@code full} is null where the kernel has none. */
    public record Pressure(Line some, Line full) {
    }

    /**
     * One line: the percentage of wall time stalled over the last 10, 60 and 300 seconds, and the total stall time.
     *
     * @param totalMicros cumulative stall time in microseconds
     */
    public record Line(double avg10, double avg60, double avg300, long totalMicros) {
    }

    /** Reads the three files of a cgroup v2 directory; {@link #NONE} when it has none of them. */
    public static TaskPressure read(Path dir) throws IOException {
        return new TaskPressure(readFile(dir.resolve("cpu.pressure")), readFile(dir.resolve("memory.pressure")),
                readFile(dir.resolve("io.pressure")));
    }

    private static Pressure readFile(Path file) throws IOException {
        try {
            return parse(Files.readString(file));
        } catch (NoSuchFileException absent) {
            return null;
        } catch (IOException e) {
            // PSI compiled in but disabled (psi=0) answers EOPNOTSUPP on read: no figures rather than a failure
            if (String.valueOf(e.getMessage()).contains("Operation not supported")) {
                return null;
            }
            throw e;
        }
    }

    /** Parses {@code some avg10=… avg60=… avg300=… total=…} and an optional {@code full …} line. */
    public static Pressure parse(String text) {
        Line some = null;
        Line full = null;
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.startsWith("some ")) {
                some = line(line.substring(5));
            } else if (line.startsWith("full ")) {
                full = line(line.substring(5));
            }
        }
        if (some == null) {
            throw new IllegalArgumentException("not a pressure file: no 'some' line in '" + text.strip() + "'");
        }
        return new Pressure(some, full);
    }

    private static Line line(String fields) {
        double avg10 = 0;
        double avg60 = 0;
        double avg300 = 0;
        long total = 0;
        for (String field : fields.trim().split("\\s+")) {
            int eq = field.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String value = field.substring(eq + 1);
            switch (field.substring(0, eq)) {
                case "avg10" -> avg10 = Double.parseDouble(value);
                case "avg60" -> avg60 = Double.parseDouble(value);
                case "avg300" -> avg300 = Double.parseDouble(value);
                case "total" -> total = Long.parseLong(value);
                default -> {
                    // a field a later kernel may add
                }
            }
        }
        return new Line(avg10, avg60, avg300, total);
    }
}
