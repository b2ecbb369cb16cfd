package dev.berth.stats;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A cgroup v2 task's three pressure files ({@code cpu.pressure}, {@code memory.pressure}, {@code io.pressure}), kept
 * open and re-read every tick as the usage files are ({@link KernelFile}), and parsed from the bytes: what
 * {@link TaskPressure#read(Path)} gives for the same directory, without opening, closing and splitting three files per
 * task and tick. Not thread-safe: the pressure collector reads and closes it under its own lock.
 */
final class TaskPressureFiles implements AutoCloseable {

    private final Path dir;
    private final KernelFile cpu;
    private final KernelFile memory;
    private final KernelFile io;

    TaskPressureFiles(Path dir, DescriptorBudget budget) {
        this.dir = dir;
        this.cpu = new KernelFile(dir.resolve("cpu.pressure"), budget);
        this.memory = new KernelFile(dir.resolve("memory.pressure"), budget);
        this.io = new KernelFile(dir.resolve("io.pressure"), budget);
    }

    Path dir() {
        return dir;
    }

    /** The three files' figures; a resource is null when its file is absent or PSI is disabled ({@code psi=0}). */
    TaskPressure read() throws IOException {
        CgroupFileBuffer buffer = CgroupFileBuffer.forThisThread();
        return new TaskPressure(read(cpu, buffer), read(memory, buffer), read(io, buffer));
    }

    private static TaskPressure.Pressure read(KernelFile file, CgroupFileBuffer buffer) throws IOException {
        try {
            return file.readInto(buffer) ? parse(buffer.bytes(), buffer.length()) : null;
        } catch (IOException e) {
            // PSI compiled in but disabled answers EOPNOTSUPP on read (a kept-open file reports that as not read)
            if (String.valueOf(e.getMessage()).contains("Operation not supported")) {
                return null;
            }
            throw e;
        }
    }

    @Override
    public void close() {
        cpu.close();
        memory.close();
        io.close();
    }

    private static final byte[] SOME = {'s', 'o', 'm', 'e', ' '};
    private static final byte[] FULL = {'f', 'u', 'l', 'l', ' '};
    private static final double[] POWERS_OF_TEN = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13,
        1e14, 1e15};

    /**
     * What {@link TaskPressure#parse(String)} gives for these bytes. The kernel's text (printable ASCII lines) is read in
     * place: a decimal of up to 15 digits is its digits divided by a power of ten, both exact doubles, which rounds as
     * {@code Double.parseDouble} does; any other number goes through the JDK's parsers, and a file with any other byte
     * through {@link TaskPressure#parse(String)} itself.
     */
    static TaskPressure.Pressure parse(byte[] buf, int len) {
        for (int i = 0; i < len; i++) {
            if ((buf[i] < ' ' && buf[i] != '\n') || buf[i] > '~') {
                return TaskPressure.parse(new String(buf, 0, len, StandardCharsets.ISO_8859_1));
            }
        }
        TaskPressure.Line some = null;
        TaskPressure.Line full = null;
        int pos = 0;
        while (pos < len) {
            int end = pos;
            while (end < len && buf[end] != '\n') {
                end++;
            }
            int start = pos;
            int stop = end;
            while (start < stop && buf[start] == ' ') {
                start++;
            }
            while (stop > start && buf[stop - 1] == ' ') {
                stop--;
            }
            if (startsWith(buf, start, stop, SOME)) {
                some = line(buf, start + SOME.length, stop);
            } else if (startsWith(buf, start, stop, FULL)) {
                full = line(buf, start + FULL.length, stop);
            }
            pos = end + 1;
        }
        if (some == null) {
            throw new IllegalArgumentException("not a pressure file: no 'some' line in '"
                    + new String(buf, 0, len, StandardCharsets.ISO_8859_1).strip() + "'");
        }
        return new TaskPressure.Pressure(some, full);
    }

    private static boolean startsWith(byte[] buf, int from, int to, byte[] prefix) {
        if (to - from < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (buf[from + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static TaskPressure.Line line(byte[] buf, int from, int to) {
        double avg10 = 0;
        double avg60 = 0;
        double avg300 = 0;
        long total = 0;
        int pos = from;
        while (pos < to) {
            while (pos < to && buf[pos] == ' ') {
                pos++;
            }
            int fieldEnd = pos;
            while (fieldEnd < to && buf[fieldEnd] != ' ') {
                fieldEnd++;
            }
            int eq = pos;
            while (eq < fieldEnd && buf[eq] != '=') {
                eq++;
            }
            if (eq < fieldEnd) {
                switch (new String(buf, pos, eq - pos, StandardCharsets.ISO_8859_1)) {
                    case "avg10" -> avg10 = decimal(buf, eq + 1, fieldEnd);
                    case "avg60" -> avg60 = decimal(buf, eq + 1, fieldEnd);
                    case "avg300" -> avg300 = decimal(buf, eq + 1, fieldEnd);
                    case "total" -> total = whole(buf, eq + 1, fieldEnd);
                    default -> {
                        // a field a later kernel may add
                    }
                }
            }
            pos = fieldEnd;
        }
        return new TaskPressure.Line(avg10, avg60, avg300, total);
    }

    private static double decimal(byte[] buf, int from, int to) {
        long digits = 0;
        int count = 0;
        int fraction = -1;
        for (int i = from; i < to; i++) {
            if (buf[i] == '.' && fraction < 0) {
                fraction = 0;
            } else if (buf[i] >= '0' && buf[i] <= '9' && count < 15) {
                digits = digits * 10 + (buf[i] - '0');
                count++;
                if (fraction >= 0) {
                    fraction++;
                }
            } else {
                return Double.parseDouble(new String(buf, from, to - from, StandardCharsets.ISO_8859_1));
            }
        }
        if (count == 0) {
            return Double.parseDouble(new String(buf, from, to - from, StandardCharsets.ISO_8859_1));
        }
        return fraction <= 0 ? digits : digits / POWERS_OF_TEN[fraction];
    }

    private static long whole(byte[] buf, int from, int to) {
        if (to - from < 1 || to - from > 18) {
            return Long.parseLong(new String(buf, from, to - from, StandardCharsets.ISO_8859_1));
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            if (buf[i] < '0' || buf[i] > '9') {
                return Long.parseLong(new String(buf, from, to - from, StandardCharsets.ISO_8859_1));
            }
            value = value * 10 + (buf[i] - '0');
        }
        return value;
    }
}
