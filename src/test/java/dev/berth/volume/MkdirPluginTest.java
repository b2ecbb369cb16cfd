package dev.berth.volume;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The built-in {@code mkdir} plugin against a real directory tree: Nomad's parameters, defaults and error texts. */
class MkdirPluginTest {

    @TempDir
    Path root;

    @Test
    void createsTheVolumeDirectoryWithTheModeAndOwnerAsked() throws Exception {
        MkdirPlugin plugin = new MkdirPlugin(root.resolve("host_volumes"));
        Path dir = plugin.create("v1", Map.of("mode", "0751", "uid", "1234", "gid", "4321"));
        assertThat(dir).isEqualTo(root.resolve("host_volumes/v1")).isDirectory();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwxr-x--x");
        assertThat(Files.getAttribute(dir, "unix:uid")).isEqualTo(1234);
        assertThat(Files.getAttribute(dir, "unix:gid")).isEqualTo(4321);
    }

    @Test
    void theDefaultModeIs0700AndTheOwnerIsLeftAsItIs() throws Exception {
        Path dir = new MkdirPlugin(root).create("v2", Map.of());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        assertThat(Files.getAttribute(dir, "unix:uid")).isEqualTo(Files.getAttribute(root, "unix:uid"));
    }

    @Test
    void anExistingDirectoryIsLeftUnchangedAndDeleteRemovesItWithItsContent() throws Exception {
        MkdirPlugin plugin = new MkdirPlugin(root);
        Path dir = plugin.create("v3", Map.of("mode", "0700"));
        Files.createDirectories(dir.resolve("a/b"));
        Files.writeString(dir.resolve("a/b/file"), "kept");
        Files.createSymbolicLink(dir.resolve("link"), root);
        assertThat(plugin.create("v3", Map.of("mode", "0777"))).isEqualTo(dir);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        assertThat(dir.resolve("a/b/file")).hasContent("kept");
        plugin.delete("v3");
        assertThat(dir).doesNotExist();
        assertThat(root).isDirectory();
        plugin.delete("v3");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            mode | 0789       | invalid value for "mode": strconv.ParseUint: parsing "0789": invalid syntax
            mode | ''         | invalid value for "mode": strconv.ParseUint: parsing "": invalid syntax
            mode | 7777777777777 | invalid value for "mode": strconv.ParseUint: parsing "7777777777777": value out of range
            uid  | root       | invalid value for "uid": strconv.Atoi: parsing "root": invalid syntax
            gid  | 99999999999999999999 | invalid value for "gid": strconv.Atoi: parsing "99999999999999999999": value out of range
            size | 10G        | invalid value for "size": unknown mkdir parameter: "size"
            """)
    void aBadParameterIsRefusedWithNomadsTextAndMakesNothing(String param, String value, String text) {
        MkdirPlugin plugin = new MkdirPlugin(root);
        assertThatExceptionOfType(HostVolumeException.class).isThrownBy(() -> plugin.create("bad", Map.of(param, value)))
                .withMessage(text).satisfies(e -> assertThat(e.kind()).isEqualTo(HostVolumeException.Kind.INVALID));
        assertThat(root.resolve("bad")).doesNotExist();
    }
}
