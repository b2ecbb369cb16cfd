package dev.berth.alloc.fs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

import dev.berth.alloc.fs.FsAccessException.Kind;
import dev.berth.alloc.spec.AllocSpecs;
import dev.berth.config.BerthProperties;

import org.springframework.stereotype.Component;

/**
 * Read access to allocation directories for the filesystem API: list, stat, ranged reads and log-file discovery,
 * every path through an {@link AllocPathGuard}. Stateless and safe for concurrent use.
 */
@Component
public class AllocFileSystem {

    private final Path allocRoot;

    public AllocFileSystem(BerthProperties properties) {
        this.allocRoot = properties.allocDir().toAbsolutePath().normalize();
    }

    /** The guard for one allocation's directory; 404 when the allocation has no directory here. */
    public AllocPathGuard guard(String allocId) {
        if (!AllocSpecs.isPathSegment(allocId)) {
            throw new FsAccessException(Kind.MALFORMED, "invalid allocation ID");
        }
        Path dir = allocRoot.resolve(allocId);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new FsAccessException(Kind.NOT_FOUND, "Unknown allocation \"" + allocId + "\"");
        }
        try {
            return new AllocPathGuard(dir);
        } catch (IOException ex) {
            throw new FsAccessException(Kind.NOT_FOUND, "Unknown allocation \"" + allocId + "\"");
        }
    }

    /** Nomad's {@code List}: the entries of a directory, sorted by name. */
    public List<AllocFileInfo> list(String allocId, String path) {
        Path dir = guard(allocId).resolve(path);
        if (!Files.exists(dir)) {
            throw new FsAccessException(Kind.NOT_FOUND, "file not found: " + path);
        }
        if (!Files.isDirectory(dir)) {
            return List.of(info(dir, false));
        }
        List<AllocFileInfo> entries = new ArrayList<>();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
            for (Path child : children) {
                entries.add(info(child, false));
            }
        } catch (IOException ex) {
            throw new FsAccessException(Kind.NOT_FOUND, "cannot list " + path + ": " + ex.getMessage());
        }
        entries.sort(Comparator.comparing(AllocFileInfo::name));
        return entries;
    }

    /** Nomad's {@code Stat}, with the detected content type. */
    public AllocFileInfo stat(String allocId, String path) {
        if (path == null || path.isEmpty()) {
            throw new FsAccessException(Kind.MALFORMED, "must provide a file name");
        }
        Path file = guard(allocId).resolve(path);
        if (!Files.exists(file)) {
            throw new FsAccessException(Kind.NOT_FOUND, "file not found: " + path);
        }
        return info(file, true);
    }

    /** A readable regular file for cat/readat/stream; refuses directories and secrets. */
    public Path fileForRead(String allocId, String path) {
        if (path == null || path.isEmpty()) {
            throw new FsAccessException(Kind.MALFORMED, "must provide a file name");
        }
        Path file = guard(allocId).resolveForRead(path);
        if (Files.isDirectory(file)) {
            throw new FsAccessException(Kind.MALFORMED, "file \"" + path + "\" is a directory");
        }
        if (!Files.exists(file)) {
            throw new FsAccessException(Kind.NOT_FOUND, "file not found: " + path);
        }
        if (!Files.isRegularFile(file)) {
            // a task's log FIFO (<task>/.berth/*.fifo): reading it would block and steal the log pump's data
            throw new FsAccessException(Kind.MALFORMED, "file \"" + path + "\" is not a regular file");
        }
        return file;
    }

    /** Reads up to {@code limit} bytes (all when negative) of {@code file} from {@code offset}. */
    public static byte[] readAt(Path file, long offset, long limit) {
        if (offset < 0) {
            throw new FsAccessException(Kind.MALFORMED, "offset must be non-negative");
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            long available = Math.max(0, size - offset);
            long want = limit < 0 ? available : Math.min(limit, available);
            if (want > Integer.MAX_VALUE - 8) {
                throw new FsAccessException(Kind.MALFORMED, "requested range too large; use limit");
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) want);
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, offset + buffer.position()) < 0) {
                    break;
                }
            }
            buffer.flip();
            byte[] out = new byte[buffer.remaining()];
            buffer.get(out);
            return out;
        } catch (NoSuchFileException ex) {
            throw new FsAccessException(Kind.NOT_FOUND, "file not found: " + file.getFileName());
        }
        catch (IOException ex) {
            throw new FsAccessException(Kind.NOT_FOUND, "cannot read file: " + ex.getMessage());
        }
    }

    /** The log directory of an allocation ({@code alloc/logs}), through the guard. */
    public Path logDir(String allocId) {
        return guard(allocId).resolveForRead("alloc/logs");
    }

    private static AllocFileInfo info(Path path, boolean withContentType) {
        try {
            PosixFileAttributes attrs = Files.readAttributes(path, PosixFileAttributes.class);
            String contentType = null;
            if (withContentType && !attrs.isDirectory()) {
                contentType = detectContentType(path);
            }
            return new AllocFileInfo(path.getFileName().toString(), attrs.isDirectory(), attrs.size(),
                    fileMode(attrs), attrs.lastModifiedTime().toInstant(), contentType);
        } catch (IOException ex) {
            throw new FsAccessException(Kind.NOT_FOUND, "file not found: " + path.getFileName());
        }
    }

    /** Go's {@code os.FileMode.String()} for the common cases. */
    static String fileMode(PosixFileAttributes attrs) {
        StringBuilder mode = new StringBuilder(10);
        mode.append(attrs.isDirectory() ? 'd' : attrs.isSymbolicLink() ? 'L' : attrs.isOther() ? 'p' : '-');
        Set<PosixFilePermission> p = attrs.permissions();
        mode.append(p.contains(PosixFilePermission.OWNER_READ) ? 'r' : '-')
                .append(p.contains(PosixFilePermission.OWNER_WRITE) ? 'w' : '-')
                .append(p.contains(PosixFilePermission.OWNER_EXECUTE) ? 'x' : '-')
                .append(p.contains(PosixFilePermission.GROUP_READ) ? 'r' : '-')
                .append(p.contains(PosixFilePermission.GROUP_WRITE) ? 'w' : '-')
                .append(p.contains(PosixFilePermission.GROUP_EXECUTE) ? 'x' : '-')
                .append(p.contains(PosixFilePermission.OTHERS_READ) ? 'r' : '-')
                .append(p.contains(PosixFilePermission.OTHERS_WRITE) ? 'w' : '-')
                .append(p.contains(PosixFilePermission.OTHERS_EXECUTE) ? 'x' : '-');
        return mode.toString();
    }

    /** Like Go's {@code http.DetectContentType} over the first 512 bytes, with {@code *.json} forced to JSON. */
    static String detectContentType(Path file) {
        if (file.getFileName().toString().endsWith(".json")) {
            return "application/json";
        }
        if (!Files.isRegularFile(file)) {
            // A FIFO (the task's log pipes) or device: opening it to sniff would block and could steal the pump's bytes.
            return "application/octet-stream";
        }
        byte[] head = new byte[512];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (IOException ex) {
            return "application/octet-stream";
        }
        if (n == 0) {
            return "text/plain; charset=utf-8";
        }
        for (int i = 0; i < n; i++) {
            int b = head[i] & 0xff;
            if (b == 0 || (b < 0x20 && b != '\n' && b != '\r' && b != '\t' && b != 0x0c && b != 0x1b)) {
                return "application/octet-stream";
            }
        }
        return "text/plain; charset=utf-8";
    }
}
