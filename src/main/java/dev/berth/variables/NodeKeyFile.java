package dev.berth.variables;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;
import java.util.UUID;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The node key that seals variables, kept in a file of its own ({@code <data-dir>/keys/variables.key}), never in the
 * state database: a copy of the database alone reveals no variable. The file is made on first use, readable by the
 * agent's user only (0600, its folder 0700), and holds the key's ID and its 256 bits (base64). Losing the file makes the
 * stored variables unreadable; each says so when read ({@link VariableCipher}).
 */
public final class NodeKeyFile {

    /** The node key: its ID (stored with every row it sealed) and the AES key. */
    public record NodeKey(String id, SecretKey key) {
    }

    private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_ONLY_DIR = PosixFilePermissions.fromString("rwx------");

    private final Path file;

    public NodeKeyFile(Path file) {
        this.file = file;
    }

    public Path path() {
        return file;
    }

    /** The key in the file, made first when there is none (one agent per data dir: the database's file lock sees to it). */
    public NodeKey loadOrCreate() {
        try {
            if (!Files.exists(file)) {
                create();
            }
            return read();
        } catch (IOException e) {
            throw new UncheckedIOException("The variables key " + file + " cannot be read or made: " + e.getMessage(), e);
        }
    }

    private void create() throws IOException {
        Files.createDirectories(file.getParent(), PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIR));
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        String text = UUID.randomUUID() + "\n" + Base64.getEncoder().encodeToString(key) + "\n";
        // made with its permissions, never readable by others, not even for a moment
        Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE));
        Files.writeString(file, text, StandardCharsets.US_ASCII, StandardOpenOption.WRITE, StandardOpenOption.SYNC);
    }

    private NodeKey read() throws IOException {
        String[] lines = Files.readString(file, StandardCharsets.US_ASCII).strip().split("\n");
        if (lines.length != 2) {
            throw new IOException("expected a key ID and a key, one a line");
        }
        byte[] key = Base64.getDecoder().decode(lines[1].strip());
        if (key.length != 32) {
            throw new IOException("the key is " + key.length * 8 + " bits, not 256");
        }
        return new NodeKey(lines[0].strip(), new SecretKeySpec(key, "AES"));
    }
}
