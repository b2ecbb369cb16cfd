package dev.berth.stats;

import java.nio.file.Path;

import com.sun.jna.platform.linux.LibC;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

@EnabledOnOs(OS.LINUX)
class HostLibCTest {

    @Test
    void statvfsGivesWhatJnasStructureGives(@TempDir Path tmp) {
        assertThat(HostLibC.AVAILABLE).as("64-bit Linux").isTrue();
        for (String path : new String[] {"/", tmp.toString(), "/proc", "/dev/shm"}) {
            long[] direct = new long[HostLibC.STATVFS_LONGS];
            long[] viaStructure = null;
            // free space moves when others write: compare with a pair of identical structure reads around ours
            for (int attempt = 0; attempt < 50; attempt++) {
                long[] first = structure(path);
                assertThat(HostLibC.statfs(HostLibC.cString(path), direct)).isTrue();
                long[] second = structure(path);
                if (java.util.Arrays.equals(first, second)) {
                    viaStructure = first;
                    break;
                }
            }
            assertThat(viaStructure).as("a stable pair of reads of %s", path).isNotNull();
            assertThat(new long[] {direct[HostLibC.F_FRSIZE], direct[HostLibC.F_BLOCKS], direct[HostLibC.F_BFREE],
                    direct[HostLibC.F_BAVAIL], direct[HostLibC.F_FILES], direct[HostLibC.F_FFREE]})
                    .as(path).containsExactly(viaStructure);
        }
        assertThat(HostLibC.statfs(HostLibC.cString(tmp.resolve("missing").toString()), new long[HostLibC.STATVFS_LONGS]))
                .isFalse();
    }

    private static long[] structure(String path) {
        LibC.Statvfs vfs = new LibC.Statvfs();
        assertThat(LibC.INSTANCE.statvfs(path, vfs)).isZero();
        return new long[] {vfs.f_frsize.longValue(), vfs.f_blocks.longValue(), vfs.f_bfree.longValue(),
                vfs.f_bavail.longValue(), vfs.f_files.longValue(), vfs.f_ffree.longValue()};
    }
}
