package dev.berth.host;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;

import com.sun.jna.NativeLibrary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The one libc binding against the real C library (glibc on 64-bit Linux). */
@EnabledOnOs(OS.LINUX)
class LibCTest {

    /** Every function the binding declares, by name: a misspelt or missing symbol fails here, not in a task. */
    static Stream<String> functions() {
        return Arrays.stream(LibC.class.getDeclaredMethods()).filter(m -> !Modifier.isStatic(m.getModifiers()))
                .map(Method::getName).sorted();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("functions")
    void theCLibraryHasEveryFunctionTheBindingDeclares(String name) {
        assertThat(LibC.available()).isTrue();
        assertThat(NativeLibrary.getInstance("c").getFunction(name)).as(name).isNotNull();
    }

    @Test
    void callsGoThroughTheOneBinding() {
        LibC libc = LibC.get();
        assertThat(libc).isSameAs(LibC.get());
        assertThat(libc.geteuid()).isEqualTo(com.sun.jna.platform.linux.LibC.INSTANCE.geteuid());
        assertThat(libc.close(-1)).isEqualTo(-1); // EBADF: a plain function returns -1 and leaves errno
        assertThat(com.sun.jna.Native.getLastError()).isEqualTo(LinuxEpoll.EBADF);
    }

    @Test
    void directStatvfsGivesWhatJnasStructureGives(@TempDir Path tmp) {
        assertThat(LibC.Direct.AVAILABLE).as("64-bit Linux").isTrue();
        for (String path : new String[] {"/", tmp.toString(), "/proc", "/dev/shm"}) {
            long[] direct = new long[LibC.Direct.STATVFS_LONGS];
            long[] viaStructure = null;
            // free space moves when others write: compare with a pair of identical structure reads around ours
            for (int attempt = 0; attempt < 50; attempt++) {
                long[] first = structure(path);
                assertThat(LibC.Direct.statfs(LibC.Direct.cString(path), direct)).isTrue();
                long[] second = structure(path);
                if (Arrays.equals(first, second)) {
                    viaStructure = first;
                    break;
                }
            }
            assertThat(viaStructure).as("a stable pair of reads of %s", path).isNotNull();
            assertThat(new long[] {direct[LibC.Direct.F_FRSIZE], direct[LibC.Direct.F_BLOCKS], direct[LibC.Direct.F_BFREE],
                    direct[LibC.Direct.F_BAVAIL], direct[LibC.Direct.F_FILES], direct[LibC.Direct.F_FFREE]})
                    .as(path).containsExactly(viaStructure);
        }
        assertThat(LibC.Direct.statfs(LibC.Direct.cString(tmp.resolve("missing").toString()), new long[LibC.Direct.STATVFS_LONGS]))
                .isFalse();
    }

    private static long[] structure(String path) {
        var vfs = new com.sun.jna.platform.linux.LibC.Statvfs();
        assertThat(com.sun.jna.platform.linux.LibC.INSTANCE.statvfs(path, vfs)).isZero();
        return new long[] {vfs.f_frsize.longValue(), vfs.f_blocks.longValue(), vfs.f_bfree.longValue(),
                vfs.f_bavail.longValue(), vfs.f_files.longValue(), vfs.f_ffree.longValue()};
    }
}
