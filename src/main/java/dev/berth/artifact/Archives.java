package dev.berth.artifact;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Enumeration;
import java.util.EnumSet;
import java.util.Set;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;

/**
 * Unpacks a fetched archive into a fresh staging directory, as go-getter's decompressors do with Nomad's settings:
 * symbolic and hard links are refused (Nomad disables symlinks), as is any entry whose path leaves the staging directory
 * ({@code ../}, absolute names) and any special file; the set-user-ID, set-group-ID and sticky bits are dropped from
 * modes; the entry count and the unpacked bytes are limited. In {@code file} mode the archive must hold exactly one file.
 */
final class Archives {

    private static final int COPY_BUFFER = 64 * 1024;

    private final int maxFiles;
    private final long maxBytes;

    /** @param maxFiles the most entries, 0 for no limit; @param maxBytes the most unpacked bytes */
    Archives(int maxFiles, long maxBytes) {
        this.maxFiles = maxFiles;
        this.maxBytes = maxBytes;
    }

    /**
     * Unpacks {@code archive} into {@code staging} (a new, empty directory); returns the tree's root, or in file mode the
     * one file.
     */
    Path unpack(Path archive, ArchiveFormat format, Path staging, boolean fileMode) throws ArtifactException, IOException {
        Budget budget = new Budget();
        return switch (format.container) {
            case SINGLE -> single(archive, format, staging, fileMode, budget);
            case TAR -> tar(archive, format, staging, fileMode, budget);
            case ZIP -> zip(archive, staging, fileMode, budget);
        };
    }

    private Path single(Path archive, ArchiveFormat format, Path staging, boolean fileMode, Budget budget)
            throws ArtifactException, IOException {
        if (!fileMode) {
            throw new ArtifactException(format.extension + "-style decompression to dir not supported (use mode = \"file\")");
        }
        Path out = staging.resolve("file");
        try (InputStream in = format.decompress(new BufferedInputStream(Files.newInputStream(archive)))) {
            write(in, out, 0644, budget);
        }
        return out;
    }

    private Path tar(Path archive, ArchiveFormat format, Path staging, boolean fileMode, Budget budget)
            throws ArtifactException, IOException {
        Path single = null;
        try (InputStream raw = format.decompress(new BufferedInputStream(Files.newInputStream(archive)));
             TarArchiveInputStream tar = new TarArchiveInputStream(raw)) {
            for (TarArchiveEntry e; (e = tar.getNextEntry()) != null; ) {
                budget.entry();
                if (e.isSymbolicLink() || e.isLink()) {
                    throw new ArtifactException("archive entry " + e.getName() + " is a link: copying of symlinks has been disabled");
                }
                if (!e.isDirectory() && !e.isFile()) {
                    throw new ArtifactException("archive entry " + e.getName() + " is not a file or directory");
                }
                if (fileMode) {
                    single = singleFile(e.getName(), e.isDirectory(), single, staging);
                    write(tar, single, e.getMode(), budget);
                } else if (e.isDirectory()) {
                    Files.createDirectories(inside(staging, e.getName()));
                } else {
                    write(tar, inside(staging, e.getName()), e.getMode(), budget);
                }
            }
        }
        return fileMode ? requireOne(single) : staging;
    }

    private Path zip(Path archive, Path staging, boolean fileMode, Budget budget) throws ArtifactException, IOException {
        Path single = null;
        try (ZipFile zip = ZipFile.builder().setPath(archive).get()) {
            Enumeration<ZipArchiveEntry> entries = zip.getEntriesInPhysicalOrder();
            while (entries.hasMoreElements()) {
                ZipArchiveEntry e = entries.nextElement();
                budget.entry();
                if (e.isUnixSymlink()) {
                    throw new ArtifactException("archive entry " + e.getName() + " is a link: copying of symlinks has been disabled");
                }
                int mode = e.getPlatform() == ZipArchiveEntry.PLATFORM_UNIX ? e.getUnixMode() : 0;
                if (fileMode) {
                    single = singleFile(e.getName(), e.isDirectory(), single, staging);
                    try (InputStream in = zip.getInputStream(e)) {
                        write(in, single, mode, budget);
                    }
                } else if (e.isDirectory()) {
                    Files.createDirectories(inside(staging, e.getName()));
                } else {
                    try (InputStream in = zip.getInputStream(e)) {
                        write(in, inside(staging, e.getName()), mode, budget);
                    }
                }
            }
        }
        return fileMode ? requireOne(single) : staging;
    }

    private static Path singleFile(String name, boolean directory, Path previous, Path staging) throws ArtifactException {
        if (directory || previous != null) {
            throw new ArtifactException("expected a single file in the archive (mode \"file\"), found more: " + name);
        }
        return staging.resolve("file");
    }

    private static Path requireOne(Path single) throws ArtifactException {
        if (single == null) {
            throw new ArtifactException("expected a single file in the archive (mode \"file\"), found none");
        }
        return single;
    }

    /** The entry's path under the staging directory; a name that leaves it is refused (zip slip). */
    static Path inside(Path staging, String name) throws ArtifactException {
        Path target = staging.resolve(name).normalize();
        if (!target.startsWith(staging)) {
            throw new ArtifactException("archive entry escapes the destination: " + name);
        }
        return target;
    }

    private void write(InputStream in, Path target, int mode, Budget budget) throws IOException, ArtifactException {
        Files.createDirectories(target.getParent());
        byte[] buf = new byte[COPY_BUFFER];
        try (OutputStream out = Files.newOutputStream(target, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            for (int n; (n = in.read(buf)) >= 0; ) {
                budget.bytes(n);
                out.write(buf, 0, n);
            }
        }
        Files.setPosixFilePermissions(target, permissions(mode & 0777));
    }

    /** The mode's rwx bits (set-ID and sticky bits dropped); an entry without a mode is {@code 0644}. */
    static Set<PosixFilePermission> permissions(int mode) {
        int m = mode == 0 ? 0644 : mode;
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
                PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.GROUP_READ, PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
                PosixFilePermission.OWNER_READ};
        for (int bit = 0; bit < order.length; bit++) {
            if ((m & (1 << bit)) != 0) {
                set.add(order[bit]);
            }
        }
        return set;
    }

    /** Counts entries and bytes against the limits of one archive. */
    private final class Budget {
        private int files;
        private long bytes;

        void entry() throws ArtifactException {
            files++;
            if (maxFiles > 0 && files > maxFiles) {
                throw new ArtifactException("archive holds more than " + maxFiles + " entries (decompression file count limit)");
            }
        }

        void bytes(int n) throws ArtifactException {
            bytes += n;
            if (bytes > maxBytes) {
                throw new ArtifactException("archive unpacks to more than " + maxBytes + " bytes (decompression size limit)");
            }
        }
    }
}
