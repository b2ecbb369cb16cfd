package dev.berth.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.berth.host.cgroup.CgroupVersion;

import static dev.berth.stats.TaskMemoryEvents.Event.FAILCNT;
import static dev.berth.stats.TaskMemoryEvents.Event.HIGH;
import static dev.berth.stats.TaskMemoryEvents.Event.LOW;
import static dev.berth.stats.TaskMemoryEvents.Event.MAX;
import static dev.berth.stats.TaskMemoryEvents.Event.MEMSW_FAILCNT;
import static dev.berth.stats.TaskMemoryEvents.Event.OOM;
import static dev.berth.stats.TaskMemoryEvents.Event.OOM_KILL;
import static dev.berth.stats.TaskMemoryEvents.Event.UNDER_OOM;

/**
 * A task's memory event files, kept open and re-read from offset 0 every tick as the usage files are
 * ({@link KernelFile}), parsed from the bytes: v2 {@code memory.events}; v1 {@code memory.failcnt},
 * {@code memory.memsw.failcnt} (only with swap accounting: checked once, when opened) and {@code memory.oom_control}.
 * An idle task's figures are the previous read's object again (nothing is allocated while no counter moves). Not
 * thread-safe: the memory-events collector reads and closes it under its own lock.
 */
final class MemoryEventsFiles implements AutoCloseable {

    private static final byte[][] EVENTS = CgroupFileBuffer.keys("low", "high", "max", "oom", "oom_kill");
    private static final byte[][] OOM_CONTROL = CgroupFileBuffer.keys("under_oom", "oom_kill");

    private final Path dir;
    private final CgroupVersion version;
    private final KernelFile events;
    private final KernelFile failcnt;
    private final KernelFile memswFailcnt;
    private final KernelFile oomControl;
    private static final TaskMemoryEvents.Event[] V2_ORDER = {LOW, HIGH, MAX, OOM, OOM_KILL};

    private final long[] values = new long[EVENTS.length];
    /** memory.events' figures in {@link #V2_ORDER}, 0 where not read. */
    private final long[] v2 = new long[EVENTS.length];
    private TaskMemoryEvents last = TaskMemoryEvents.NONE;

    /**
     * @param dir    the task's v2 cgroup directory, or its v1 memory cgroup directory
     * @param budget the agent's descriptor budget: the files are kept open out of it, as the stats readers' are
     */
    MemoryEventsFiles(CgroupVersion version, Path dir, DescriptorBudget budget) {
        this.dir = dir;
        this.version = version;
        if (version == CgroupVersion.V2) {
            events = new KernelFile(dir.resolve("memory.events"), budget);
            failcnt = null;
            memswFailcnt = null;
            oomControl = null;
        } else {
            events = null;
            failcnt = new KernelFile(dir.resolve("memory.failcnt"), budget);
            memswFailcnt = Files.exists(dir.resolve("memory.memsw.failcnt")) ? new KernelFile(dir.resolve("memory.memsw.failcnt"), budget) : null;
            oomControl = new KernelFile(dir.resolve("memory.oom_control"), budget);
        }
    }

    Path dir() {
        return dir;
    }

    /** The counters now; {@link TaskMemoryEvents#NONE} when no file could be read (the cgroup is gone). */
    TaskMemoryEvents read() throws IOException {
        CgroupFileBuffer buffer = CgroupFileBuffer.forThisThread();
        long[] v2 = this.v2;
        java.util.Arrays.fill(v2, 0);
        long fails = 0;
        long memswFails = 0;
        boolean underOom = false;
        long oomKill = 0;
        int measured = 0;
        if (events != null && events.readInto(buffer)) {
            long found = buffer.scan(EVENTS, values);
            for (int i = 0; i < V2_ORDER.length; i++) {
                if ((found & (1L << i)) != 0) {
                    measured |= V2_ORDER[i].bit();
                    v2[i] = values[i];
                }
            }
            oomKill = v2[4];
        }
        if (failcnt != null && failcnt.readInto(buffer) && buffer.firstLong() >= 0) {
            fails = buffer.firstLong();
            measured |= FAILCNT.bit();
        }
        if (memswFailcnt != null && memswFailcnt.readInto(buffer) && buffer.firstLong() >= 0) {
            memswFails = buffer.firstLong();
            measured |= MEMSW_FAILCNT.bit();
        }
        if (oomControl != null && oomControl.readInto(buffer)) {
            long found = buffer.scan(OOM_CONTROL, values);
            if ((found & 1) != 0) {
                underOom = values[0] != 0;
                measured |= UNDER_OOM.bit();
            }
            if ((found & 2) != 0) {
                oomKill = values[1]; // kernels before 4.13 have no oom_kill line
                measured |= OOM_KILL.bit();
            }
        }
        TaskMemoryEvents was = last;
        if (was.low() != v2[0] || was.high() != v2[1] || was.max() != v2[2] || was.oom() != v2[3] || was.oomKill() != oomKill
                || was.failcnt() != fails || was.memswFailcnt() != memswFails || was.underOom() != underOom
                || was.measured() != measured) {
            last = new TaskMemoryEvents(v2[0], v2[1], v2[2], v2[3], oomKill, fails, memswFails, underOom, measured);
        }
        return last;
    }

    @Override
    public void close() {
        for (KernelFile file : new KernelFile[] {events, failcnt, memswFailcnt, oomControl}) {
            if (file != null) {
                file.close();
            }
        }
    }
}
