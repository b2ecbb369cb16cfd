package dev.berth.stats;

import java.io.IOException;

/**
 * The per-tick host reads of {@code /proc/stat}, {@code /proc/meminfo} and {@code /proc/uptime} through kept-open
 * {@link ProcFile}s, parsed from the bytes in place. A tick runs once a second, so its code stays interpreted for
 * minutes (C1 compiles after a few hundred calls): what OSHI did per tick (a list of line strings, a regex split per
 * line, {@code Double.parseDouble}) cost more than the kernel's own work.
 *
 * The parsers are plain loops over the bytes, cheap even interpreted, and their loops are compiled (on-stack
 * replacement) within a minute or so; going through {@code String.indexOf} instead was faster only while the JDK's own
 * methods stay compiled, and much slower where not (figures in docs/benchmarks/stats.md).
 *
 * <p>Every figure is exactly what the slower path gave: {@link #cpuTicks} is OSHI's
 * {@code CentralProcessor.getProcessorCpuLoadTicks()} (the {@code cpuN} lines in order, {@code TickType} order, ticks
 * × 1000 / {@code USER_HZ}, one more read when the first core reads all zero), {@link #uptimeSeconds} OSHI's
 * {@code OperatingSystem.getSystemUptime()} and {@link #meminfo} {@link Meminfo#parse(String)}. Input the fast parsers
 * do not expect (a field that is not plain digits, an unusual separator) goes through those same slow parsers.
 * Not thread-safe: the host collector's tick (serialised) is its only caller.
 */
final class ProcHostFiles implements AutoCloseable {

    /** Ticks per core: OSHI's {@code TickType} count (user, nice, system, idle, iowait, irq, softirq, steal). */
    static final int TICK_TYPES = 8;
    private static final int IDLE_INDEX = 3;
    private static final byte[][] MEMINFO_KEYS = CgroupFileBuffer.keys("MemTotal", "MemFree", "MemAvailable", "Buffers",
            "Cached", "SReclaimable");

    private final ProcFile stat;
    private final ProcFile meminfo;
    private final ProcFile uptime;

    ProcHostFiles(String stat, String meminfo, String uptime) {
        this.stat = new ProcFile(stat);
        this.meminfo = new ProcFile(meminfo);
        this.uptime = new ProcFile(uptime);
    }

    /**
     * OSHI's {@code getProcessorCpuLoadTicks()}: cumulative milliseconds per logical core.
     *
     * @param cores the logical processor count (OSHI's, fixed at start)
     * @param hz    the kernel's {@code USER_HZ}
     */
    long[][] cpuTicks(int cores, long hz) throws IOException {
        stat.read();
        long[][] ticks = parseCpuTicks(stat.bytes(), stat.length(), cores);
        if (sum(ticks[0]) == 0) {
            stat.read(); // OSHI reads once more when the first core shows nothing yet
            ticks = parseCpuTicks(stat.bytes(), stat.length(), cores);
        }
        for (long[] core : ticks) {
            for (int i = 0; i < core.length; i++) {
                core[i] = core[i] * 1000L / hz;
            }
        }
        return ticks;
    }

    /** {@link Meminfo#parse(String)} of the current {@code /proc/meminfo}. */
    Meminfo meminfo() throws IOException {
        meminfo.read();
        return parseMeminfo(meminfo.bytes(), meminfo.length());
    }

    /** OSHI's {@code getSystemUptime()}: the first figure of {@code /proc/uptime}, truncated to whole seconds. */
    long uptimeSeconds() throws IOException {
        uptime.read();
        return parseUptime(uptime.bytes(), uptime.length());
    }

    /**
     * OSHI's {@code CpuStat.parseProcessorCpuLoadTicks}: the lines starting {@code cpu} but not {@code "cpu "} fill the
     * rows in order (their number is not looked at) until {@code cores} rows are filled; a line with no more than three
     * fields ends the parse; a field that is not a number reads 0.
     */
    static long[][] parseCpuTicks(byte[] buf, int len, int cores) {
        long[][] ticks = new long[cores][TICK_TYPES];
        if (cores == 0) {
            return ticks;
        }
        int row = 0;
        int pos = 0;
        while (pos < len) {
            int end = pos;
            while (end < len && buf[end] != '\n') {
                end++;
            }
            if (end - pos >= 3 && buf[pos] == 'c' && buf[pos + 1] == 'p' && buf[pos + 2] == 'u'
                    && !(end - pos >= 4 && buf[pos + 3] == ' ')) {
                if (!parseCpuLine(buf, pos, end, ticks[row])) {
                    return ticks;
                }
                if (++row >= cores) {
                    return ticks;
                }
            }
            pos = end + 1;
        }
        return ticks;
    }

    /** One {@code cpuN} line into {@code row}; false (row left zero) when it has no more than three fields. */
    private static boolean parseCpuLine(byte[] buf, int from, int to, long[] row) {
        // fields split on whitespace runs, as a regex split on \s+ (a trailing run adds no field); field 0 is "cpuN"
        int fields = 0;
        int pos = from;
        while (pos < to) {
            int start = pos;
            while (pos < to && !isSpace(buf[pos])) {
                pos++;
            }
            if (fields > 0 && fields <= TICK_TYPES) {
                row[fields - 1] = parseLongOrZero(buf, start, pos);
            }
            fields++;
            while (pos < to && isSpace(buf[pos])) {
                pos++;
            }
        }
        if (fields <= IDLE_INDEX) {
            java.util.Arrays.fill(row, 0);
            return false;
        }
        return true;
    }

    /** Java's {@code \s}: space, tab, newline, vertical tab, form feed, carriage return. */
    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == 0x0B || b == '\f' || b == '\r';
    }

    /** OSHI's {@code ParseUtil.parseLongOrDefault(field, 0)}: plain digits here, anything else through Long.parseLong. */
    private static long parseLongOrZero(byte[] buf, int from, int to) {
        if (to - from > 0 && to - from <= 18) {
            long value = 0;
            int i = from;
            while (i < to && buf[i] >= '0' && buf[i] <= '9') {
                value = value * 10 + (buf[i++] - '0');
            }
            if (i == to) {
                return value;
            }
        }
        try {
            return Long.parseLong(new String(buf, from, to - from, java.nio.charset.StandardCharsets.ISO_8859_1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * {@link Meminfo#parse(String)} from bytes: {@code Key: digits[ kB]} lines are read in place; a wanted line of any
     * other shape sends the whole text through {@link Meminfo#parse(String)}.
     */
    static Meminfo parseMeminfo(byte[] buf, int len) {
        long[] values = new long[MEMINFO_KEYS.length];
        long found = 0;
        int pos = 0;
        while (pos < len) {
            int end = pos;
            while (end < len && buf[end] != '\n') {
                end++;
            }
            int colon = pos;
            while (colon < end && buf[colon] != ':') {
                colon++;
            }
            int key = colon < end ? keyIndex(buf, pos, colon) : -1;
            if (key >= 0) {
                long value = meminfoValue(buf, colon + 1, end);
                if (value < 0) {
                    return Meminfo.parse(new String(buf, 0, len, java.nio.charset.StandardCharsets.ISO_8859_1));
                }
                values[key] = value;
                found |= 1L << key;
            }
            pos = end + 1;
        }
        if ((found & 1) == 0) {
            return Meminfo.parse(new String(buf, 0, len, java.nio.charset.StandardCharsets.ISO_8859_1)); // throws: no MemTotal
        }
        return new Meminfo(values[0], values[1], values[2], (found & 4) != 0, values[3], values[4], values[5]);
    }

    private static int keyIndex(byte[] buf, int from, int to) {
        for (int k = 0; k < MEMINFO_KEYS.length; k++) {
            byte[] key = MEMINFO_KEYS[k];
            if (key.length == to - from) {
                int i = 0;
                while (i < key.length && buf[from + i] == key[i]) {
                    i++;
                }
                if (i == key.length) {
                    return k;
                }
            }
        }
        return -1;
    }

    /**
     * The value after a meminfo key's colon as {@link Meminfo} reads it (the trimmed text's first space-separated
     * token, × 1024 when the text ends in {@code kB}); -1 when it is not plain digits followed by a space or the end.
     */
    private static long meminfoValue(byte[] buf, int from, int to) {
        int start = from;
        while (start < to && (buf[start] & 0xff) <= ' ') {
            start++;
        }
        int last = to - 1;
        while (last >= start && (buf[last] & 0xff) <= ' ') {
            last--;
        }
        int i = start;
        long value = 0;
        while (i <= last && buf[i] >= '0' && buf[i] <= '9') {
            value = value * 10 + (buf[i++] - '0');
        }
        if (i == start || i - start > 18 || (i <= last && buf[i] != ' ')) {
            return -1;
        }
        boolean kib = last - start >= 1 && buf[last - 1] == 'k' && buf[last] == 'B';
        return kib ? value * 1024 : value;
    }

    /**
     * OSHI's {@code (long) UpTime.getSystemUptimeSeconds()}: the first line up to its first space as a double, 0 when
     * there is no space or no number; plain {@code digits.digits} is read in place.
     */
    static long parseUptime(byte[] buf, int len) {
        int lineEnd = 0;
        while (lineEnd < len && buf[lineEnd] != '\n') {
            lineEnd++;
        }
        int space = 0;
        while (space < lineEnd && buf[space] != ' ') {
            space++;
        }
        if (space == lineEnd) {
            return 0;
        }
        int i = 0;
        long whole = 0;
        while (i < space && buf[i] >= '0' && buf[i] <= '9') {
            whole = whole * 10 + (buf[i++] - '0');
        }
        int wholeDigits = i;
        int fraction = 0;
        if (i < space && buf[i] == '.') {
            i++;
            while (i < space && buf[i] >= '0' && buf[i] <= '9') {
                i++;
                fraction++;
            }
        }
        if (i == space && wholeDigits > 0 && wholeDigits <= 15 && fraction <= 3) {
            return whole;
        }
        try {
            return (long) Double.parseDouble(new String(buf, 0, space, java.nio.charset.StandardCharsets.ISO_8859_1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static long sum(long[] values) {
        long sum = 0;
        for (long v : values) {
            sum += v;
        }
        return sum;
    }

    @Override
    public void close() {
        stat.close();
        meminfo.close();
        uptime.close();
    }
}
