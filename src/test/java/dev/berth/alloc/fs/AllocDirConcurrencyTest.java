package dev.berth.alloc.fs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The alloc dir's layout and modes, and every AllocDir operation racing the others on many allocs from many threads. */
class AllocDirConcurrencyTest {

    @TempDir
    Path root;

    static int mode(Path p) throws Exception {
        return (Integer) Files.getAttribute(p, "unix:mode") & 07777;
    }

    @Test
    void layoutAndModesAreNomads() throws Exception {
        AllocDir d = new AllocDir(root, "a1");
        d.build();
        d.buildTask("web");

        assertThat(mode(d.path())).isEqualTo(0755);
        assertThat(mode(d.sharedDir())).isEqualTo(0755);
        for (String s : List.of("logs", "tmp", "data")) {
            assertThat(mode(d.sharedDir().resolve(s))).as(s).isEqualTo(0777);
        }
        assertThat(mode(d.taskDir("web"))).isEqualTo(0777);
        assertThat(mode(d.taskDir("web").resolve("local"))).isEqualTo(0777);
        assertThat(mode(d.taskDir("web").resolve("tmp"))).as("sticky tmp").isEqualTo(01777);
        assertThat(mode(d.taskDir("web").resolve("secrets"))).isEqualTo(0777);
    }

    @Test
    void manyThreadsBuildingMovingAndDestroyingManyAllocsNeverFailAndLeaveConsistentDirs() throws Exception {
        int allocs = 12;
        int threads = 16;
        int opsPerThread = 150;
        List<Callable<Void>> work = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            work.add(() -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                for (int i = 0; i < opsPerThread; i++) {
                    // a fresh instance every time, as the hooks do: the locking must not depend on sharing one
                    String id = "alloc-" + rnd.nextInt(allocs);
                    AllocDir d = new AllocDir(root, id);
                    switch (rnd.nextInt(5)) {
                        case 0, 1 -> d.build();
                        case 2 -> {
                            d.build();
                            d.buildTask("t" + rnd.nextInt(3));
                            try {
                                // stands for a task writing (outside the dir's lock) while another thread destroys
                                Files.writeString(d.sharedDir().resolve("data").resolve("f" + rnd.nextInt(4)), "x");
                            } catch (java.nio.file.NoSuchFileException e) {
                                // destroyed in between: fine for a writer, destroy must just not trip over it
                            }
                        }
                        case 3 -> d.destroy();
                        default -> {
                            AllocDir other = new AllocDir(root, "alloc-" + rnd.nextInt(allocs));
                            if (!other.path().equals(d.path())) {
                                d.build();
                                try {
                                    d.moveFrom(other, List.of("t0"));
                                } catch (java.nio.file.FileSystemException e) {
                                    // the source vanished or the target filled meanwhile: a migration failure the hook
                                    // handles softly; the dirs themselves must stay usable
                                }
                            }
                        }
                    }
                }
                return null;
            });
        }
        ExecutorService exec = Executors.newFixedThreadPool(threads);
        try {
            for (Future<Void> f : exec.invokeAll(work)) {
                f.get(); // rethrows any failure of any operation
            }
        } finally {
            exec.shutdownNow();
        }

        for (int i = 0; i < allocs; i++) {
            AllocDir d = new AllocDir(root, "alloc-" + i);
            d.build();
            d.buildTask("t0");
            assertThat(mode(d.sharedDir().resolve("data"))).isEqualTo(0777);
            assertThat(mode(d.taskDir("t0").resolve("tmp"))).isEqualTo(01777);
            d.destroy();
            assertThat(d.path()).doesNotExist();
        }
    }
}
