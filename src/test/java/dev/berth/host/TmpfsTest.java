package dev.berth.host;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class TmpfsTest {

    @TempDir
    Path dir;

    @Test
    void mountinfoEscapesAreDecoded() {
        assertThat(Tmpfs.unescape("/a\\040b\\011c")).isEqualTo("/a b\tc");
        assertThat(Tmpfs.unescape("/plain")).isEqualTo("/plain");
        assertThat(Tmpfs.unescape("/bad\\9x")).isEqualTo("/bad\\9x");
    }

    @Test
    void aPlainDirectoryIsNoMountPointAndHasNothingToUnmount() throws Exception {
        assertThat(Tmpfs.isMountPoint(dir)).isFalse();
        assertThat(Tmpfs.mountsUnder(dir)).isEmpty();
        assertThat(Tmpfs.unmountUnder(dir)).isZero();
        assertThat(Tmpfs.unmountUnder(dir.resolve("missing"))).isZero();
        assertThat(Tmpfs.isMountPoint(Path.of("/proc"))).isTrue();
    }
}
