package dev.berth.alloc.fs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.berth.alloc.fs.FsAccessException.Kind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class AllocPathGuardTest {

    @TempDir
    Path tmp;

    Path allocDir;
    AllocPathGuard guard;

    @BeforeEach
    void layout() throws IOException {
        allocDir = Files.createDirectories(tmp.resolve("allocs/a1"));
        Files.createDirectories(allocDir.resolve("alloc/logs"));
        Files.createDirectories(allocDir.resolve("alloc/data"));
        Files.createDirectories(allocDir.resolve("web/secrets"));
        Files.createDirectories(allocDir.resolve("web/private"));
        Files.createDirectories(allocDir.resolve("web/local"));
        Files.writeString(allocDir.resolve("web/secrets/token"), "s3cret");
        Files.writeString(allocDir.resolve("web/private/key"), "k3y");
        Files.writeString(allocDir.resolve("alloc/logs/web.stdout.0"), "hello");
        Files.writeString(tmp.resolve("outside.txt"), "outside");
        Files.createDirectories(tmp.resolve("allocs/a1-sibling"));
        Files.writeString(tmp.resolve("allocs/a1-sibling/x"), "sibling");
        Files.createSymbolicLink(allocDir.resolve("alloc/data/etc"), Path.of("/etc"));
        Files.createSymbolicLink(allocDir.resolve("alloc/data/passwd"), Path.of("/etc/passwd"));
        Files.createSymbolicLink(allocDir.resolve("web/local/parent"), tmp);
        Files.createSymbolicLink(allocDir.resolve("alloc/data/dangling"), tmp.resolve("nope/nothing"));
        Files.createSymbolicLink(allocDir.resolve("alloc/data/to-secret"), allocDir.resolve("web/secrets/token"));
        Files.createSymbolicLink(allocDir.resolve("alloc/data/sibling"), tmp.resolve("allocs/a1-sibling"));
        guard = new AllocPathGuard(allocDir);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "../outside.txt", "/../outside.txt", "alloc/../../outside.txt", "alloc/logs/../../../outside.txt",
            "..", "../a1-sibling/x", "alloc/data/etc/passwd", "alloc/data/passwd", "alloc/data/etc",
            "web/local/parent/outside.txt", "web/local/parent/not-yet-there", "alloc/data/dangling",
            "alloc/data/sibling/x", "./../outside.txt", "alloc/./../../outside.txt"})
    void escapesAreRefused(String hostile) {
        assertThatExceptionOfType(FsAccessException.class).isThrownBy(() -> guard.resolve(hostile))
                .satisfies(ex -> assertThat(ex.kind()).isEqualTo(Kind.ESCAPE))
                .withMessage("Path escapes the alloc directory");
    }

    @Test
    void percentEncodedDotsAreLiteralNamesInsideTheAllocDir() {
        // the servlet container decodes once; what reaches the guard still encoded is a harmless literal name
        assertThat(guard.resolve("%2e%2e/outside.txt")).startsWithRaw(allocDir);
        assertThat(guard.resolve("%2e%2e/outside.txt")).doesNotExist();
    }

    @Test
    void absolutePathsAreRootedAtTheAllocDir() {
        assertThat(guard.resolve("/etc/passwd")).isEqualTo(allocDir.resolve("etc/passwd")).doesNotExist();
        assertThat(guard.resolve("/")).isEqualTo(allocDir);
        assertThat(guard.resolve("/alloc/logs/web.stdout.0")).hasContent("hello");
    }

    @Test
    void nulBytesAndOverlongPathsAreBadRequests() {
        assertThatExceptionOfType(FsAccessException.class).isThrownBy(() -> guard.resolve("alloc/logs\0/../../x"))
                .satisfies(ex -> assertThat(ex.kind()).isEqualTo(Kind.MALFORMED));
        assertThatExceptionOfType(FsAccessException.class).isThrownBy(() -> guard.resolve("a/".repeat(3000)))
                .satisfies(ex -> assertThat(ex.kind()).isEqualTo(Kind.MALFORMED));
    }

    @Test
    void filesThatDoNotExistYetAreAllowedForFollowers() {
        assertThat(guard.resolve("alloc/logs/web.stdout.7")).isEqualTo(allocDir.resolve("alloc/logs/web.stdout.7"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"web/secrets/token", "/web/secrets/token", "web/SECRETS/token", "web/private/key",
            "alloc/data/to-secret", "web/secrets"})
    void readsOfSecretsAndPrivateAreForbidden(String path) {
        assertThatExceptionOfType(FsAccessException.class).isThrownBy(() -> guard.resolveForRead(path))
                .satisfies(ex -> assertThat(ex.kind()).isIn(Kind.FORBIDDEN));
    }

    @Test
    void listingSecretsIsAllowedLikeNomad() {
        assertThat(guard.resolve("web/secrets")).isDirectory();
    }
}
