package dev.berth.artifact;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.berth.alloc.spec.TaskArtifactSpec;

/**
 * Fetches one resolved artifact into the task's sandbox, go-getter's way: download (or copy a permitted local file) into a
 * work directory inside the allocation, verify the {@code checksum} of what was downloaded, unpack an archive, then place
 * the result by mode: {@code file} at the destination path, {@code any} as {@code <destination>/<file name>} (or the
 * unpacked tree into the destination directory), {@code dir} only for archives and local directories.
 */
final class ArtifactGetter {

    private static final Map<String, String> DIGESTS = Map.of("md5", "MD5", "sha1", "SHA-1", "sha256", "SHA-256", "sha512", "SHA-512");

    private final HttpFetcher http;
    private final Archives archives;
    private final List<Path> fileSourceRoots;

    ArtifactGetter(ArtifactProperties props) {
        this.http = new HttpFetcher(props.httpReadTimeout(), props.httpMaxSize().toBytes());
        this.archives = new Archives(props.decompressionFileCountLimit(), props.decompressionSizeLimit().toBytes());
        this.fileSourceRoots = props.fileSourcePaths();
    }

    /**
     * @param taskDir  the task directory (writable)
     * @param allocDir the allocation directory: its {@code alloc/} is writable, the whole of it readable by {@code file://}
     */
    void get(ArtifactRequest req, Path taskDir, Path allocDir) throws ArtifactException, IOException, InterruptedException {
        Placement place = new Placement(List.of(taskDir, allocDir.resolve("alloc")));
        Path work = Files.createTempDirectory(allocDir, "artifact-");
        try {
            Path download = work.resolve("download");
            String path;
            if (req.isFile()) {
                Path source = localSource(req.uri(), allocDir);
                path = source.toString();
                if (Files.isDirectory(source)) {
                    copyDirectory(req, source, work.resolve("staged"), place);
                    return;
                }
                Files.copy(source, download, LinkOption.NOFOLLOW_LINKS);
            } else {
                http.fetch(req, download);
                path = req.uri().getPath() == null ? "" : req.uri().getPath();
            }
            if (req.checksum() != null) {
                verify(download, req.checksum());
            }
            boolean fileMode = TaskArtifactSpec.MODE_FILE.equals(req.mode());
            Optional<ArchiveFormat> format = ArchiveFormat.select(req.archive(), path);
            if (format.isPresent()) {
                Path staging = Files.createDirectory(work.resolve("staged"));
                Path out = archives.unpack(download, format.get(), staging, fileMode);
                if (fileMode) {
                    place.file(out, req.destination());
                } else {
                    place.tree(staging, req.destination());
                }
                return;
            }
            switch (req.mode()) {
                case TaskArtifactSpec.MODE_FILE -> place.file(download, req.destination());
                case TaskArtifactSpec.MODE_DIR -> throw new ArtifactException("mode \"dir\" needs an archive or a local directory;"
                        + " " + req.source() + " is a single file");
                default -> place.file(download, req.destination().resolve(fileName(req, path)));
            }
        } finally {
            deleteTree(work);
        }
    }

    /** In {@code any} mode a single file keeps the last element of the source's path, or the {@code filename} option. */
    private static String fileName(ArtifactRequest req, String path) throws ArtifactException {
        if (req.filename() != null && !req.filename().isEmpty()) {
            String f = req.filename();
            if (f.contains("/") || f.equals("..") || f.equals(".")) {
                throw new ArtifactException("invalid filename option: " + f);
            }
            return f;
        }
        if (path.isEmpty() || path.endsWith("/")) {
            throw new ArtifactException("source " + req.source() + " names a directory, which can only be fetched as an archive");
        }
        return Path.of(path).getFileName().toString();
    }

    /** A {@code file://} source must lie (links resolved) inside the allocation directory or a configured root. */
    private Path localSource(URI uri, Path allocDir) throws ArtifactException, IOException {
        Path p;
        try {
            p = Path.of(uri);
        } catch (IllegalArgumentException e) {
            throw new ArtifactException("invalid file source " + uri + ": " + e.getMessage());
        }
        if (!Files.exists(p)) {
            throw new ArtifactException("source path error: stat " + p + ": no such file or directory");
        }
        Path real = p.toRealPath();
        List<Path> roots = new ArrayList<>(fileSourceRoots);
        roots.add(allocDir);
        for (Path root : roots) {
            if (Files.exists(root) && real.startsWith(root.toRealPath())) {
                return real;
            }
        }
        throw new ArtifactException("file source " + p + " is outside the allocation directory and berth.artifact.file-source-paths");
    }

    private static void copyDirectory(ArtifactRequest req, Path source, Path staged, Placement place)
            throws ArtifactException, IOException {
        if (TaskArtifactSpec.MODE_FILE.equals(req.mode())) {
            throw new ArtifactException("mode \"file\" needs a file; " + source + " is a directory");
        }
        if (req.checksum() != null) {
            throw new ArtifactException("a checksum cannot be checked for a directory source");
        }
        List<Path> links = new ArrayList<>();
        Files.walkFileTree(source, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(staged.resolve(source.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (!attrs.isRegularFile()) {
                    links.add(file);
                    return FileVisitResult.TERMINATE;
                }
                Files.copy(file, staged.resolve(source.relativize(file).toString()), StandardCopyOption.COPY_ATTRIBUTES);
                return FileVisitResult.CONTINUE;
            }
        });
        if (!links.isEmpty()) {
            throw new ArtifactException("source " + links.getFirst() + " is a link or special file: copying of symlinks has been disabled");
        }
        place.tree(staged, req.destination());
    }

    /** go-getter's checksum check of the downloaded file (the archive itself, before unpacking). */
    static void verify(Path file, String checksum) throws ArtifactException, IOException {
        int colon = checksum.indexOf(':');
        String type = checksum.substring(0, colon);
        String expected = checksum.substring(colon + 1).toLowerCase(java.util.Locale.ROOT);
        MessageDigest md;
        try {
            md = MessageDigest.getInstance(DIGESTS.get(type));
        } catch (NoSuchAlgorithmException e) {
            throw new ArtifactException("unsupported checksum type: " + type);
        }
        byte[] buf = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) >= 0; ) {
                md.update(buf, 0, n);
            }
        }
        String actual = HexFormat.of().formatHex(md.digest());
        if (!actual.equals(expected)) {
            throw new ArtifactException("checksums did not match: expected " + type + ":" + expected + ", got " + type + ":" + actual);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
