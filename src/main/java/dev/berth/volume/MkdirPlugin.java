package dev.berth.volume;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Nomad's built-in {@code mkdir} host volume plugin: a volume is the directory {@code <volumes dir>/<volume ID>}, made
 * with the {@code mode} (octal, default {@code 0700}), {@code uid} and {@code gid} (default: unchanged) parameters;
 * any other parameter is refused. Creating a volume whose directory exists changes nothing; deleting removes the
 * directory and everything in it. Its capacity is 0: a directory has no size of its own.
 */
public final class MkdirPlugin {

    /** The plugin's ID, as a volume's {@code PluginID} names it. */
    public static final String ID = "mkdir";
    /** The version Nomad fingerprints for it ({@code plugins.host_volume.mkdir.version}). */
    public static final String VERSION = "0.0.1";

    private static final PosixFilePermission[] BITS = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};

    private final Path volumesDir;

    public MkdirPlugin(Path volumesDir) {
        this.volumesDir = volumesDir;
    }

    /** The parameters the plugin understands, decoded. */
    record Params(long mode, long uid, long gid) {
    }

    /** The directory of the volume with {@code id}. */
    public Path pathOf(String id) {
        return volumesDir.resolve(id);
    }

    /**
     * Makes the volume's directory, unless it exists.
     *
     * @return its path
     * @throws HostVolumeException (INVALID) for a bad parameter, or when the directory cannot be made or owned
     */
    public Path create(String id, Map<String, String> parameters) {
        Path path = pathOf(id);
        if (Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return path;
        }
        Params params = decode(parameters);
        try {
            Files.createDirectories(path);
        } catch (IOException e) {
            throw invalid("error creating directory: " + reason("mkdir", e));
        }
        try {
            Files.setPosixFilePermissions(path, permissions(params.mode()));
        } catch (IOException e) {
            throw invalid("error setting directory permission mode: " + reason("chmod", e));
        }
        try {
            if (params.uid() != -1) {
                Files.setAttribute(path, "unix:uid", (int) params.uid());
            }
            if (params.gid() != -1) {
                Files.setAttribute(path, "unix:gid", (int) params.gid());
            }
        } catch (IOException e) {
            // a volume the plugin could not own as asked is not left behind
            removeQuietly(path);
            throw invalid("error changing owner/group: " + reason("chown", e));
        }
        return path;
    }

    /** Removes the volume's directory and its content (nothing when it is gone already). */
    public void delete(String id) {
        try {
            removeTree(pathOf(id));
        } catch (IOException e) {
            throw invalid(reason("unlinkat", e));
        }
    }

    /** Decodes {@code mode}, {@code uid} and {@code gid} as Nomad does, with Go's error texts. */
    static Params decode(Map<String, String> parameters) {
        long mode = 0700;
        long uid = -1;
        long gid = -1;
        for (Map.Entry<String, String> p : new TreeMap<>(parameters).entrySet()) {
            String value = p.getValue();
            switch (p.getKey()) {
                case "mode" -> mode = octal(p.getKey(), value);
                case "uid" -> uid = integer(p.getKey(), value);
                case "gid" -> gid = integer(p.getKey(), value);
                default -> throw invalidParam(p.getKey(), "unknown mkdir parameter: " + HostVolumeRules.quote(p.getKey()));
            }
        }
        return new Params(mode, uid, gid);
    }

    private static long octal(String param, String value) {
        if (value.isEmpty() || !value.chars().allMatch(c -> c >= '0' && c <= '7')) {
            throw invalidParam(param, "strconv.ParseUint: parsing " + HostVolumeRules.quote(value) + ": invalid syntax");
        }
        if (value.replaceFirst("^0+", "").length() > 11 || Long.parseLong(value, 8) > 0xFFFFFFFFL) {
            throw invalidParam(param, "strconv.ParseUint: parsing " + HostVolumeRules.quote(value) + ": value out of range");
        }
        return Long.parseLong(value, 8);
    }

    private static long integer(String param, String value) {
        if (!value.matches("[+-]?[0-9]+")) {
            throw invalidParam(param, "strconv.Atoi: parsing " + HostVolumeRules.quote(value) + ": invalid syntax");
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw invalidParam(param, "strconv.Atoi: parsing " + HostVolumeRules.quote(value) + ": value out of range");
        }
    }

    private static Set<PosixFilePermission> permissions(long mode) {
        Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
        for (int bit = 0; bit < BITS.length; bit++) {
            if ((mode & (1L << bit)) != 0) {
                out.add(BITS[bit]);
            }
        }
        return out;
    }

    private static void removeQuietly(Path path) {
        try {
            removeTree(path);
        } catch (IOException ignored) {
            // the error reported is the ownership one; what is left is for the operator to see
        }
    }

    /** Removes {@code root} and everything under it; links are removed, never followed. */
    private static void removeTree(Path root) throws IOException {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Go's {@code *PathError} text: {@code op path: reason}, the reason in lower case. */
    private static String reason(String op, IOException e) {
        if (e instanceof NoSuchFileException n) {
            return op + " " + n.getFile() + ": no such file or directory";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return op + " " + f.getFile() + ": " + f.getReason().toLowerCase(java.util.Locale.ROOT);
        }
        return op + ": " + e.getMessage();
    }

    private static HostVolumeException invalidParam(String param, String why) {
        return invalid("invalid value for " + HostVolumeRules.quote(param) + ": " + why);
    }

    private static HostVolumeException invalid(String message) {
        return new HostVolumeException(HostVolumeException.Kind.INVALID, message);
    }
}
