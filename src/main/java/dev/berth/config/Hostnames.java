package dev.berth.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The host's name as the kernel knows it; read from a file so no name resolution (DNS) is ever attempted. */
public final class Hostnames {

    private static final Path KERNEL_HOSTNAME = Path.of("/proc/sys/kernel/hostname");

    private Hostnames() {
    }

    /** {@code /proc/sys/kernel/hostname}, else {@code $HOSTNAME}, else {@code "localhost"}. */
    public static String local() {
        return read(KERNEL_HOSTNAME, System.getenv("HOSTNAME"));
    }

    static String read(Path file, String fallback) {
        try {
            String name = Files.readString(file).trim();
            if (!name.isEmpty()) {
                return name;
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux, or /proc not mounted: use the fallback
        }
        return fallback == null || fallback.isBlank() ? "localhost" : fallback.trim();
    }
}
