package dev.berth.stats;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;
import oshi.util.ParseUtil;
import oshi.util.driver.linux.proc.UpTime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The lean per-tick reads give exactly what OSHI (CPU ticks, uptime) and {@link Meminfo#parse(String)} give: on
 * fixtures through OSHI's own parser, and on this machine's live files.
 */
class ProcHostFilesTest {

    private static final String STAT = """
            cpu  10132153 290696 3084719 46828483 16683 0 25195 0 0 0
            cpu0 1393280 32966 572056 13343292 6130 0 17875 0 0 0
            cpu1 1335437 39021 540398 13301476 1986 0 3380 7 0 0
            cpu2 1361818 66584 505108 13331098 2612 0 1740 0 0 0
            cpu3 6041618 152125 1467157 6852617 5955 0 2200 0 0 0
            intr 199292248 35 0 0 0 0 0 0 0 1 0 0 0 4 0 0 0 27 0 0 0 0 0 0 0
            ctxt 273694870
            btime 1732580000
            processes 517209
            procs_running 2
            procs_blocked 0
            softirq 25398437 2 9135420 2 386413 27 0 9 8349123 0 7527441
            """;

    @Test
    void cpuTicksAreOshisOnFixtures() throws Exception {
        List<String> fixtures = List.of(
                STAT,
                STAT.replace("cpu1 ", "cpu1\t").replace(" 7 0 0 0", " 7 0 0 0   "), // tabs, trailing blanks
                "cpu  1 2 3 4\ncpu0 1 2 3 4\ncpu1 5 6 7 8\n",                        // 2.4 kernels: four fields
                "cpu0 1 2 3 4 5 6 7\ncpu1 9 9 9 9 9 9 9\n",                        // no steal
                "cpu0 1 2 3 4 5 6 7 8 9 10\ncpu1 1 2\ncpu2 4 4 4 4\n",             // a short line ends the parse
                "cpu0 1 x 3 4 -5 +6 99999999999999999999 8\ncpu1 1 2 3 4\n",       // not numbers, too big
                "cpu0 1 2 3 4 5 6 7 8\n",                                          // fewer lines than cores
                "cpu0 1 2 3 4\ncpu1 1 2 3 4\ncpu2 1 2 3 4\ncpu3 1 2 3 4\ncpu4 9 9 9 9\ncpu5 9 9 9 9\n",
                "intr 1 2 3\ncpu7 1 2 3 4 5 6 7 8\n",                               // numbers of the lines are not read
                "",
                "cpu");
        for (String text : fixtures) {
            for (int cores : new int[] {1, 2, 4}) {
                byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
                assertThat(ProcHostFiles.parseCpuTicks(bytes, bytes.length, cores))
                        .as("%d cores of %s", cores, text)
                        .isDeepEqualTo(oshiParse(text, cores));
            }
        }
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void cpuTicksAreOshisOnThisMachine() throws Exception {
        CentralProcessor processor = new SystemInfo().getHardware().getProcessor();
        int cores = processor.getLogicalProcessorCount();
        long hz = oshi.software.os.linux.LinuxOperatingSystemJNA.hz();
        try (ProcHostFiles files = new ProcHostFiles("/proc/stat", "/proc/meminfo", "/proc/uptime")) {
            long[][] before = files.cpuTicks(cores, hz);
            long[][] oshi = new SystemInfo().getHardware().getProcessor().getProcessorCpuLoadTicks(); // not memoised yet
            long[][] after = files.cpuTicks(cores, hz);
            assertThat(oshi.length).isEqualTo(before.length);
            for (int core = 0; core < cores; core++) {
                for (int tick = 0; tick < ProcHostFiles.TICK_TYPES; tick++) {
                    // the counters only grow: OSHI's read, taken between ours, lies between them
                    assertThat(oshi[core][tick]).as("core %d tick %d", core, tick)
                            .isBetween(before[core][tick], after[core][tick]);
                }
            }
        }
        OshiHostStatsSource source = new OshiHostStatsSource(new SystemInfo());
        assertThat(source.leanReads()).as("OSHI's JNA Linux classes: the lean reads are used").isTrue();
    }

    @Test
    void uptimeIsOshisOnFixtures() {
        for (String text : List.of("350735.47 234388.90\n", "12.00 4.5\n", "7 1\n", "123. 5\n", ".5 1\n", "1e3 4\n",
                "-4.2 1\n", "abc 1\n", "350735.47\n", "", "99.999999 1\n", "1234567890123456789.5 1\n", "5.5 1 \n2 3")) {
            byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
            String firstLine = text.lines().findFirst().orElse("");
            int space = firstLine.indexOf(' ');
            long oshi = space < 0 ? 0 : (long) ParseUtil.parseDoubleOrDefault(firstLine.substring(0, space), 0d);
            assertThat(ProcHostFiles.parseUptime(bytes, bytes.length)).as(text).isEqualTo(oshi);
        }
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void uptimeIsOshisOnThisMachine() throws Exception {
        try (ProcHostFiles files = new ProcHostFiles("/proc/stat", "/proc/meminfo", "/proc/uptime")) {
            long before = files.uptimeSeconds();
            long oshi = (long) UpTime.getSystemUptimeSeconds();
            long after = files.uptimeSeconds();
            assertThat(oshi).isBetween(before, after);
            assertThat(before).isPositive();
        }
    }

    @Test
    void meminfoIsMeminfoParseOnFixtures() {
        String typical = """
                MemTotal:       24684096 kB
                MemFree:        20000000 kB
                MemAvailable:   23000000 kB
                Buffers:          100000 kB
                Cached:          2000000 kB
                SwapCached:            0 kB
                SReclaimable:     300000 kB
                HugePages_Total:       0
                Hugepagesize:       2048 kB
                """;
        for (String text : List.of(typical,
                typical.replace("MemAvailable:   23000000 kB\n", ""),
                typical.replace("Cached:          2000000 kB", "Cached: 2000000"),      // no unit
                typical.replace("Buffers:          100000 kB", "Buffers:\t100000\tkB"), // a tab before the unit
                typical.replace("MemFree:        20000000 kB", "MemFree:        20000000kB"),
                typical.replace("MemFree:        20000000 kB", "MemFree:   x kB"),
                typical.replace("MemFree:        20000000 kB", "MemFree:"),
                typical.replace("MemTotal:       24684096 kB\n", ""),
                typical.replace("SReclaimable:     300000 kB", "SReclaimable:     300000 kB  "),
                typical + "Cached: 5 kB\n",                                                // a key twice: the last wins
                typical.replace("MemFree:        20000000 kB", "MemFree: x kB") + "MemFree: 5 kB\n",
                "Xyz: 1\nMemTotal: 5 kB\nMemTotalX: 7 kB\n xMemFree: 3 kB\n",
                typical.replace("\n", "\r\n"),
                "MemTotal: 99999999999999999999 kB\n",
                "")) {
            byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
            assertThat(outcome(() -> ProcHostFiles.parseMeminfo(bytes, bytes.length))).as(text)
                    .isEqualTo(outcome(() -> Meminfo.parse(text)));
        }
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void meminfoIsMeminfoParseOnThisMachine() throws Exception {
        ProcFile file = new ProcFile("/proc/meminfo");
        file.read();
        assertThat(ProcHostFiles.parseMeminfo(file.bytes(), file.length())).isEqualTo(Meminfo.parse(file.text()));
        file.close();
    }

    @Test
    void aProcFileIsReadWholeAgainAtEveryRead(@TempDir Path tmp) throws Exception {
        Path path = tmp.resolve("f");
        byte[] big = new byte[10_000];
        Arrays.fill(big, (byte) 'a');
        Files.write(path, big);
        try (ProcFile file = new ProcFile(path.toString())) {
            file.read();
            assertThat(file.length()).isEqualTo(10_000);
            Files.writeString(path, "short");
            file.read();
            assertThat(file.text()).isEqualTo("short");
        }
    }

    /** The parse's value, or the class of what it threw. */
    private static Object outcome(java.util.concurrent.Callable<Object> parse) {
        Throwable thrown = catchThrowable(() -> parse.call());
        if (thrown != null) {
            return thrown.getClass();
        }
        try {
            return parse.call();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** OSHI's own parser of /proc/stat lines (package-private in OSHI, so called reflectively). */
    private static long[][] oshiParse(String text, int cores) throws Exception {
        Class<?> cpuStat = Class.forName("oshi.util.driver.linux.proc.CpuStat");
        Method parse = cpuStat.getDeclaredMethod("parseProcessorCpuLoadTicks", List.class, int.class);
        parse.setAccessible(true);
        return (long[][]) parse.invoke(null, text.isEmpty() ? List.of() : Arrays.asList(text.split("\n")), cores);
    }
}
