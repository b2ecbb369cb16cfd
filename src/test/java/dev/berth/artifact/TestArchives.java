package dev.berth.artifact;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;

/** Builds small archives in memory for the artifact tests: name/content pairs, {@code ->} marks a symlink entry. */
final class TestArchives {

    private TestArchives() {
    }

    /** A tar of {@code entries} (name, content, name, content…); a content starting with {@code ->} is a symlink to the rest. */
    static byte[] tar(String... entries) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(bytes)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (int i = 0; i < entries.length; i += 2) {
                String name = entries[i];
                String content = entries[i + 1];
                if (content.startsWith("->")) {
                    TarArchiveEntry e = new TarArchiveEntry(name, TarArchiveEntry.LF_SYMLINK);
                    e.setLinkName(content.substring(2));
                    tar.putArchiveEntry(e);
                } else if (name.endsWith("/")) {
                    tar.putArchiveEntry(new TarArchiveEntry(name));
                } else {
                    byte[] data = content.getBytes(StandardCharsets.UTF_8);
                    // TarArchiveEntry normalises names; the raw header keeps a traversal name as written
                    TarArchiveEntry e = new TarArchiveEntry(name, true);
                    e.setSize(data.length);
                    e.setMode(name.endsWith(".sh") ? 0104755 : 0100644);
                    tar.putArchiveEntry(e);
                    tar.write(data);
                }
                tar.closeArchiveEntry();
            }
        }
        return bytes.toByteArray();
    }

    static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(bytes)) {
            out.write(data);
        }
        return bytes.toByteArray();
    }

    /** A zip of {@code entries} as for {@link #tar}. */
    static byte[] zip(String... entries) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipArchiveOutputStream zip = new ZipArchiveOutputStream(bytes)) {
            for (int i = 0; i < entries.length; i += 2) {
                String name = entries[i];
                String content = entries[i + 1];
                ZipArchiveEntry e = new ZipArchiveEntry(name);
                byte[] data;
                if (content.startsWith("->")) {
                    e.setUnixMode(0120777);
                    data = content.substring(2).getBytes(StandardCharsets.UTF_8);
                } else {
                    e.setUnixMode(name.endsWith(".sh") ? 0100755 : 0100644);
                    data = content.getBytes(StandardCharsets.UTF_8);
                }
                zip.putArchiveEntry(e);
                zip.write(data);
                zip.closeArchiveEntry();
            }
        }
        return bytes.toByteArray();
    }
}
