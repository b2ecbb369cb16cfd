package dev.berth.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Temp dirs that must outlive a test class (a {@code @DynamicPropertySource} dir that a cached context keeps using, where
 * JUnit's {@code @TempDir} would be gone too early): removed, with {@link ThrowawayDataDir#delete}, when the JVM ends.
 */
public final class TempDirs {

    private static final List<Path> DIRS = new CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> DIRS.forEach(ThrowawayDataDir::delete), "temp-dirs-cleanup"));
    }

    private TempDirs() {
    }

    /** A new directory under {@code java.io.tmpdir}, removed at JVM exit. */
    public static Path removedAtExit(String prefix) throws IOException {
        Path dir = Files.createTempDirectory(prefix);
        DIRS.add(dir);
        return dir;
    }
}
