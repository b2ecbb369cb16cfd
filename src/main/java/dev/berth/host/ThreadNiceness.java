package dev.berth.host;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadFactory;

/**
 * Background work at a lower CPU priority than API requests. On Linux the nice value is per thread, so
 * {@code setpriority(PRIO_PROCESS, tid, n)} ({@link LibC}) on the calling thread lowers only that thread: the kernel then
 * hands the CPU to request threads first when both are runnable (at nice 10 a thread weighs about a tenth of a nice-0
 * one), while the background work still gets every idle cycle. Raising niceness needs no privilege. Elsewhere this is a no-op.
 */
public final class ThreadNiceness {

    /** The nice value of periodic sampling threads (task and host stats). */
    public static final int BACKGROUND = 10;

    private static final int PRIO_PROCESS = 0;

    private ThreadNiceness() {
    }

    /**
     * Sets the calling thread's nice value to {@code nice}, unless it already runs at that or a lower priority (an agent
     * started with {@code nice -n 15} keeps 15: this only ever lowers priority).
     *
     * @return whether the thread now runs at nice {@code nice} or higher (false off Linux, without native access, or
     *         when the kernel refused)
     */
    public static boolean applyToCurrentThread(int nice) {
        try {
            int current = currentThreadNice();
            if (current >= nice) {
                return true;
            }
            // "/proc/thread-self" links to "<pid>/task/<tid>": the kernel thread id, which Java does not expose
            String link = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
            int tid = Integer.parseInt(link.substring(link.lastIndexOf('/') + 1));
            return LibC.get().setpriority(PRIO_PROCESS, tid, nice) == 0;
        } catch (Exception | LinkageError e) {
            return false;
        }
    }

    /** The calling thread's nice value: field 19 of {@code /proc/thread-self/stat}, counted after the command name. */
    public static int currentThreadNice() throws java.io.IOException {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[19 - 3]);
    }

    /** A factory whose threads set their nice value first thing, then run their task. */
    public static ThreadFactory lowered(ThreadFactory factory, int nice) {
        return task -> factory.newThread(() -> {
            applyToCurrentThread(nice);
            task.run();
        });
    }
}
