package dev.berth.device.nvidia;

import java.io.IOException;
import java.nio.file.Path;

/** Lets tests outside this package install the stand-in {@code nvidia-smi} and load the mapping configuration. */
public final class NvidiaTestFixtures {

    private NvidiaTestFixtures() {
    }

    public static Path install(Path dir) throws IOException {
        return NvidiaProcessesAndMigTest.install(dir);
    }

    public static Class<?> mappingConfiguration() {
        return NvidiaJobMappingConfiguration.class;
    }
}
