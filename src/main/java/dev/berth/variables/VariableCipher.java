package dev.berth.variables;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;

import dev.berth.variables.NodeKeyFile.NodeKey;
import dev.berth.variables.VariableException.Kind;
import dev.berth.variables.VariableStore.Sealed;

/**
 * Seals a variable's items with AES-256-GCM (the JDK's) under the node key: a fresh 96-bit nonce per write, stored in
 * front of the ciphertext, and the variable's namespace and path as associated data, so a sealed value copied onto
 * another row does not open there. The key is read from its file on first use, not at start.
 */
public final class VariableCipher {

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    /** The layout of the clear bytes, so a later layout can be told apart. */
    private static final int FORMAT = 1;

    private final Supplier<NodeKey> keySource;
    private final SecureRandom random = new SecureRandom();
    private volatile NodeKey key;

    public VariableCipher(Supplier<NodeKey> keySource) {
        this.keySource = keySource;
    }

    /** The ID of the key new writes are sealed under. */
    public String keyId() {
        return key().id();
    }

    public Sealed seal(String namespace, String path, Map<String, String> items) {
        NodeKey k = key();
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, k.key(), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associatedData(namespace, path));
            byte[] sealed = cipher.doFinal(encode(items));
            byte[] out = Arrays.copyOf(nonce, NONCE_BYTES + sealed.length);
            System.arraycopy(sealed, 0, out, NONCE_BYTES, sealed.length);
            return new Sealed(k.id(), out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is required by every Java platform", e);
        }
    }

    /** The items in clear; a {@link VariableException} ({@code UNREADABLE}) when this node cannot open them. */
    public Map<String, String> open(String namespace, String path, Sealed sealed) {
        NodeKey k = key();
        if (!k.id().equals(sealed.keyId())) {
            throw new VariableException(Kind.UNREADABLE, "variable \"" + path + "\" is unreadable: it was encrypted with key "
                    + sealed.keyId() + ", and this node has only key " + k.id() + " (a lost or replaced variables key file)");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, k.key(), new GCMParameterSpec(TAG_BITS, sealed.data(), 0, NONCE_BYTES));
            cipher.updateAAD(associatedData(namespace, path));
            return decode(cipher.doFinal(sealed.data(), NONCE_BYTES, sealed.data().length - NONCE_BYTES));
        } catch (GeneralSecurityException | IOException | RuntimeException e) {
            throw new VariableException(Kind.UNREADABLE, "variable \"" + path + "\" is unreadable: its stored value does not "
                    + "open with key " + k.id() + " (" + e.getClass().getSimpleName() + ")");
        }
    }

    private NodeKey key() {
        NodeKey k = key;
        if (k == null) {
            synchronized (this) {
                if (key == null) {
                    key = keySource.get();
                }
                k = key;
            }
        }
        return k;
    }

    private static byte[] associatedData(String namespace, String path) {
        return (namespace + "\u0000" + path).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] encode(Map<String, String> items) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeInt(items.size());
            for (Map.Entry<String, String> e : new TreeMap<>(items).entrySet()) {
                writeString(out, e.getKey());
                writeString(out, e.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static Map<String, String> decode(byte[] clear) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(clear));
        if (in.readByte() != FORMAT) {
            throw new IOException("unknown layout");
        }
        int count = in.readInt();
        Map<String, String> items = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            items.put(readString(in), readString(in));
        }
        return items;
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readString(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
