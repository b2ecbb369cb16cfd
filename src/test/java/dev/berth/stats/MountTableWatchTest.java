package dev.berth.stats;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class MountTableWatchTest {

    @Test
    void reportsAChangeFirstThenOnlyAfterAMountOrUnmount(@TempDir Path tmp) throws Exception {
        try (MountTableWatch watch = MountTableWatch.open(Path.of("/proc/self/mounts"))) {
            assumeTrue(watch.watching(), "needs Linux /proc/self/mounts");
            assertThat(watch.changed()).as("first look").isTrue();
            assertThat(watch.changed()).as("nothing mounted since").isFalse();

            assumeTrue("root".equals(System.getProperty("user.name")), "mounting needs root");
            Path target = Files.createDirectory(tmp.resolve("mnt"));
            assertThat(run("mount", "-t", "tmpfs", "-o", "size=1m", "berth-watch-test", target.toString())).isZero();
            try {
                assertThat(watch.changed()).as("after mount").isTrue();
                assertThat(watch.changed()).as("reported once").isFalse();
            } finally {
                assertThat(run("umount", target.toString())).isZero();
            }
            assertThat(watch.changed()).as("after unmount").isTrue();
        }
    }

    @Test
    void withoutADescriptorEveryLookIsAChange(@TempDir Path tmp) {
        try (MountTableWatch watch = MountTableWatch.open(tmp.resolve("missing"))) {
            assertThat(watch.watching()).isFalse();
            assertThat(watch.changed()).isTrue();
            assertThat(watch.changed()).isTrue();
        }
    }

    private static int run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).inheritIO().start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return process.exitValue();
    }
}
