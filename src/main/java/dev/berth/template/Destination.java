package dev.berth.template;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import dev.berth.alloc.spec.TemplateSpec;

/**
 * Writes a rendered template to its destination (atomically: a temporary file beside it, then a move) with its
 * {@code perms}, and hands it to {@code uid}/{@code gid} when Berth runs as root (otherwise they are left, as a
 * non-root agent may not give files away). Also parses an {@code env} template's {@code KEY=value} lines.
 */
final class Destination {

    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    private Destination() {
    }

    /** Writes {@code content}; false when the file already held exactly that. */
    static boolean write(Path target, String content, TemplateSpec spec) throws IOException {
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        if (Files.isRegularFile(target) && java.util.Arrays.equals(Files.readAllBytes(target), bytes)) {
            return false;
        }
        Files.createDirectories(target.getParent());
        Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
        try {
            Files.write(tmp, bytes);
            Files.setPosixFilePermissions(tmp, permissions(Integer.parseInt(spec.perms(), 8)));
            if (ROOT && spec.uid() != null) {
                Files.setAttribute(tmp, "unix:uid", spec.uid());
            }
            if (ROOT && spec.gid() != null) {
                Files.setAttribute(tmp, "unix:gid", spec.gid());
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return true;
    }

    static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> perms = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = PosixFilePermission.values();   // OWNER_READ … OTHERS_EXECUTE, high bit first
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << (bits.length - 1 - i))) != 0) {
                perms.add(bits[i]);
            }
        }
        return perms;
    }

    /** {@code KEY=value} lines (blank lines and {@code #} comments skipped, {@code export } and quotes removed). */
    static Map<String, String> envLines(String content) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String raw : content.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("export ")) {
                line = line.substring(7).strip();
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String value = line.substring(eq + 1).strip();
            if (value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"") || value.startsWith("'") && value.endsWith("'"))) {
                value = value.substring(1, value.length() - 1);
            }
            env.put(line.substring(0, eq).strip(), value);
        }
        return env;
    }
}
