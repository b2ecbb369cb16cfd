package dev.berth.support;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import com.sun.management.HotSpotDiagnosticMXBean;

/**
 * Writes a dump of every thread of the test JVM, virtual threads included (which {@code Thread.getAllStackTraces} omits),
 * so that a test that timed out waiting for the agent shows what the agent's threads were doing.
 */
public final class ThreadDumps {

    private ThreadDumps() {
    }

    /** Dumps to {@code target/thread-dumps/<name>-<time>.txt} and prints the path; returns the path, or null if it failed. */
    public static Path write(String name) {
        try {
            Path dir = Files.createDirectories(Path.of("target", "thread-dumps"));
            Path file = dir.resolve(name.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + Instant.now().toEpochMilli() + ".txt").toAbsolutePath();
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.TEXT_PLAIN);
            System.out.println("thread dump written to " + file);
            return file;
        } catch (IOException | RuntimeException e) {
            System.out.println("thread dump failed: " + e);
            return null;
        }
    }

    /** The dump's stack of the thread named {@code threadName}, for a failure message ("" when there is none). */
    public static String stackOf(Path dump, String threadName) {
        if (dump == null) {
            return "";
        }
        try {
            String text = Files.readString(dump);
            int at = text.indexOf("\"" + threadName + "\"");
            if (at < 0) {
                return "no thread " + threadName + " in " + dump;
            }
            int end = text.indexOf("\n\n", at);
            return text.substring(at, end < 0 ? text.length() : end);
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** A wait that may time out. */
    @FunctionalInterface
    public interface Wait {
        void run() throws Exception;
    }

    /** Runs {@code wait}; a timeout becomes an error that also shows the stack of {@code thread} from a full dump. */
    public static void showingOnTimeout(String name, String thread, Wait wait) throws Exception {
        try {
            wait.run();
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            Path dump = write(name);
            throw new AssertionError(e.getMessage() + "\n" + thread + " thread: " + stackOf(dump, thread), e);
        }
    }
}
