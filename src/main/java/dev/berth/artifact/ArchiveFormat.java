package dev.berth.artifact;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/**
 * The archive formats go-getter unpacks, by the extension it matches on the source's path (the longest match wins) or
 * by name in the {@code archive} option. go-getter's xz and zstd formats are known but refused: this agent cannot read
 * them, and fetching them packed instead would run something other than what was written.
 */
enum ArchiveFormat {
    TAR("tar", Container.TAR, Compression.NONE),
    TAR_GZ("tar.gz", Container.TAR, Compression.GZIP),
    TGZ("tgz", Container.TAR, Compression.GZIP),
    TAR_BZ2("tar.bz2", Container.TAR, Compression.BZIP2),
    TBZ2("tbz2", Container.TAR, Compression.BZIP2),
    GZ("gz", Container.SINGLE, Compression.GZIP),
    BZ2("bz2", Container.SINGLE, Compression.BZIP2),
    ZIP("zip", Container.ZIP, Compression.NONE);

    /** go-getter's formats that this agent does not read. */
    static final List<String> UNSUPPORTED = List.of("tar.xz", "txz", "xz", "tar.zst", "tzst", "zst");

    enum Container { TAR, ZIP, SINGLE }

    enum Compression { NONE, GZIP, BZIP2 }

    final String extension;
    final Container container;
    final Compression compression;

    ArchiveFormat(String extension, Container container, Compression compression) {
        this.extension = extension;
        this.container = container;
        this.compression = compression;
    }

    /**
     * The format to unpack with: the {@code archive} option when given ({@code false} keeps the file packed), else the
     * source path's extension; empty when the file is not an archive.
     */
    static Optional<ArchiveFormat> select(String archiveOption, String path) throws ArtifactException {
        if (archiveOption != null && !archiveOption.isEmpty()) {
            if (archiveOption.equalsIgnoreCase("false")) {
                return Optional.empty();
            }
            return Optional.of(named(archiveOption.toLowerCase(Locale.ROOT)));
        }
        String p = path == null ? "" : path.toLowerCase(Locale.ROOT);
        Optional<String> ext = java.util.stream.Stream.concat(Arrays.stream(values()).map(f -> f.extension), UNSUPPORTED.stream())
                .filter(x -> p.endsWith("." + x)).max(Comparator.comparingInt(String::length));
        if (ext.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(named(ext.get()));
    }

    private static ArchiveFormat named(String name) throws ArtifactException {
        for (ArchiveFormat f : values()) {
            if (f.extension.equals(name)) {
                return f;
            }
        }
        if (UNSUPPORTED.contains(name)) {
            throw new ArtifactException("archive format " + name + " is not supported by this agent"
                    + " (set options { archive = false } to fetch the file packed)");
        }
        throw new ArtifactException("unsupported archive type: " + name);
    }

    InputStream decompress(InputStream in) throws IOException {
        return switch (compression) {
            case NONE -> in;
            case GZIP -> new GzipCompressorInputStream(in, true);
            case BZIP2 -> new BZip2CompressorInputStream(in, true);
        };
    }
}
