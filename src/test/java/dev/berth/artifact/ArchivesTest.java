package dev.berth.artifact;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Archive unpacking as go-getter does it with Nomad's settings: formats, file mode, and the entries that are refused. */
class ArchivesTest {

    @TempDir
    Path tmp;

    final Archives archives = new Archives(4096, 1 << 20);

    Path unpack(byte[] data, ArchiveFormat format, boolean fileMode) throws Exception {
        Path dir = Files.createTempDirectory(tmp, "case");
        Path archive = Files.write(dir.resolve("archive"), data);
        Path staging = Files.createDirectory(dir.resolve("staged"));
        return archives.unpack(archive, format, staging, fileMode);
    }

    static Stream<Arguments> formats() throws Exception {
        byte[] tar = TestArchives.tar("bin/", "", "bin/run.sh", "echo hi\n", "README", "read me");
        return Stream.of(
                Arguments.of(ArchiveFormat.TAR, tar),
                Arguments.of(ArchiveFormat.TAR_GZ, TestArchives.gzip(tar)),
                Arguments.of(ArchiveFormat.TGZ, TestArchives.gzip(tar)),
                Arguments.of(ArchiveFormat.ZIP, TestArchives.zip("bin/run.sh", "echo hi\n", "README", "read me")));
    }

    @ParameterizedTest
    @MethodSource("formats")
    void eachFormatUnpacksItsTreeWithModesButNoSetIdBits(ArchiveFormat format, byte[] data) throws Exception {
        Path root = unpack(data, format, false);
        assertThat(root.resolve("bin/run.sh")).hasContent("echo hi");
        assertThat(root.resolve("README")).hasContent("read me");
        // the tar's set-user-ID bit is dropped, the executable bits kept
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("bin/run.sh")))).isEqualTo("rwxr-xr-x");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("README")))).isEqualTo("rw-r--r--");
    }

    static Stream<Arguments> refused() throws Exception {
        return Stream.of(
                Arguments.of("tar entry with ../", ArchiveFormat.TAR, TestArchives.tar("../evil", "x"), "escapes the destination: ../evil"),
                Arguments.of("tar.gz entry deep ../", ArchiveFormat.TAR_GZ, TestArchives.gzip(TestArchives.tar("a/../../evil", "x")),
                        "escapes the destination"),
                Arguments.of("tar absolute entry", ArchiveFormat.TAR, TestArchives.tar("/etc/evil", "x"), "escapes the destination"),
                Arguments.of("zip slip", ArchiveFormat.ZIP, TestArchives.zip("../../evil", "x"), "escapes the destination: ../../evil"),
                Arguments.of("tar symlink", ArchiveFormat.TAR, TestArchives.tar("link", "->/etc"), "copying of symlinks has been disabled"),
                Arguments.of("zip symlink", ArchiveFormat.ZIP, TestArchives.zip("link", "->/etc"), "copying of symlinks has been disabled"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void dangerousEntriesAreRefusedAndNothingLandsOutside(String name, ArchiveFormat format, byte[] data, String error) throws Exception {
        assertThatExceptionOfType(ArtifactException.class).isThrownBy(() -> unpack(data, format, false))
                .withMessageContaining(error);
        try (Stream<Path> all = Files.walk(tmp)) {
            assertThat(all.filter(p -> p.getFileName().toString().equals("evil"))).isEmpty();
        }
        assertThat(tmp.getParent().resolve("evil")).doesNotExist();
    }

    @Test
    void fileModeTakesTheArchivesOneFileAndRefusesMore() throws Exception {
        assertThat(unpack(TestArchives.gzip("just me".getBytes()), ArchiveFormat.GZ, true)).hasContent("just me");
        assertThatExceptionOfType(ArtifactException.class)
                .isThrownBy(() -> unpack(TestArchives.tar("a", "1", "b", "2"), ArchiveFormat.TAR, true))
                .withMessageContaining("expected a single file");
    }

    @Test
    void aBareGzipCannotBeUnpackedIntoADirectory() {
        assertThatExceptionOfType(ArtifactException.class)
                .isThrownBy(() -> unpack(TestArchives.gzip("x".getBytes()), ArchiveFormat.GZ, false))
                .withMessageContaining("gz-style decompression to dir not supported");
    }

    @Test
    void limitsOnEntriesAndBytesHold() {
        Archives small = new Archives(2, 5);
        assertThatExceptionOfType(ArtifactException.class).isThrownBy(() -> small.unpack(
                        Files.write(tmp.resolve("a"), TestArchives.tar("a", "1", "b", "2", "c", "3")), ArchiveFormat.TAR,
                        Files.createDirectory(tmp.resolve("s1")), false))
                .withMessageContaining("more than 2 entries");
        assertThatExceptionOfType(ArtifactException.class).isThrownBy(() -> small.unpack(
                        Files.write(tmp.resolve("b"), TestArchives.tar("a", "123456")), ArchiveFormat.TAR,
                        Files.createDirectory(tmp.resolve("s2")), false))
                .withMessageContaining("more than 5 bytes");
    }

    @Test
    void formatsAreChosenByOptionThenLongestExtension() throws Exception {
        assertThat(ArchiveFormat.select(null, "/x/app.tar.gz")).contains(ArchiveFormat.TAR_GZ);
        assertThat(ArchiveFormat.select(null, "/x/app.TGZ")).contains(ArchiveFormat.TGZ);
        assertThat(ArchiveFormat.select(null, "/x/app.gz")).contains(ArchiveFormat.GZ);
        assertThat(ArchiveFormat.select(null, "/x/run.sh")).isEmpty();
        assertThat(ArchiveFormat.select("false", "/x/app.zip")).isEmpty();
        assertThat(ArchiveFormat.select("zip", "/x/download")).contains(ArchiveFormat.ZIP);
        assertThatExceptionOfType(ArtifactException.class).isThrownBy(() -> ArchiveFormat.select(null, "/x/app.tar.xz"))
                .withMessageContaining("archive format tar.xz is not supported");
        assertThatExceptionOfType(ArtifactException.class).isThrownBy(() -> ArchiveFormat.select("rar", "/x/a"))
                .withMessageContaining("unsupported archive type: rar");
    }
}
