package dev.berth.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * The wanted keys of one kind of {@code key value} cgroup file (memory.stat, cpu.stat, cpuacct.stat), and that kind's
 * line layout as learned from a file read: each line's key length and separator, and which wanted key (if any) it
 * holds. The kernel writes such a file's keys in a fixed order, so a read with a known layout jumps over each key by
 * its length and compares only the wanted keys' bytes, then stops after the last wanted line — instead of finding and
 * comparing every key. A file that does not match the layout (a wanted key not where it was, a separator elsewhere) is
 * scanned key by key, as without a layout, and teaches the layout anew; so the values are those of a full scan either
 * way. A file lacking one of the wanted keys teaches no layout (the lines a layout skips are not compared, so it could
 * not tell that key from another of its length there): files of that kind are always scanned key by key. One
 * instance serves the files of every task (layouts are immutable, published through a volatile field).
 *
 * <p>Only for files whose key set is fixed for the running kernel (cgroupfs): {@code /proc/PID/status} lacks lines for
 * some processes and is scanned key by key.
 */
final class StatKeys {

    private final byte[][] keys;
    private final long all;
    /** The layout of the last file scanned key by key, if it held every wanted key; null otherwise. */
    private volatile Layout layout;

    StatKeys(String... names) {
        if (names.length > Long.SIZE) {
            throw new IllegalArgumentException("at most 64 keys");
        }
        this.keys = CgroupFileBuffer.keys(names);
        this.all = CgroupFileBuffer.allOf(names.length);
    }

    int size() {
        return keys.length;
    }

    /**
     * Stores the value of each wanted key found in the buffer's file into {@code out} at the key's index, as
     * {@link CgroupFileBuffer#scan(byte[][], long[])} does.
     *
     * @return a bit mask of the keys found (bit i = key i)
     */
    long scan(CgroupFileBuffer buffer, long[] out) {
        Layout known = layout;
        if (known != null && known.read(keys, buffer, out)) {
            return all;
        }
        long found = buffer.scan(keys, out);
        // a layout without some wanted key could not tell that key from the line it skips: such files are scanned
        layout = found == all ? Layout.learn(keys, all, buffer.bytes(), buffer.length()) : null;
        return found;
    }

    /** Whether a layout has been learned (for tests). */
    boolean learned() {
        return layout != null;
    }

    /**
     * Lines {@code [0, keyLengths.length)} of a file, up to the last one holding a wanted key; every wanted key is on
     * one of them.
     *
     * @param wanted per line, the index of the wanted key it holds, or -1
     */
    private record Layout(int[] keyLengths, byte[] separators, int[] wanted) {

        /** Stores every wanted key's value by this layout; false (some stored) when the file does not follow it. */
        boolean read(byte[][] keys, CgroupFileBuffer buffer, long[] out) {
            byte[] b = buffer.bytes();
            int n = buffer.length();
            int[] lengths = keyLengths;
            int[] wantedAt = wanted;
            byte[] separatorAt = separators;
            int pos = 0;
            for (int line = 0; line < lengths.length; line++) {
                int keyEnd = pos + lengths[line];
                if (keyEnd >= n || b[keyEnd] != separatorAt[line]) {
                    return false;
                }
                int k = wantedAt[line];
                if (k >= 0) {
                    byte[] key = keys[k];
                    for (int i = 0; i < key.length; i++) {
                        if (b[pos + i] != key[i]) {
                            return false;
                        }
                    }
                    out[k] = buffer.parseLong(keyEnd);
                }
                pos = keyEnd;
                while (pos < n && b[pos] != '\n') {
                    pos++;
                }
                pos++;
            }
            return true;
        }

        /**
         * The layout of the file in {@code b[0, n)}: its lines up to the last one holding a wanted key (the first line
         * of each key counts, as in a key-by-key scan); null unless every wanted key is on a line before the first
         * line without a separator.
         */
        static Layout learn(byte[][] keys, long all, byte[] b, int n) {
            List<int[]> lines = new ArrayList<>(); // {key length, separator, wanted index}
            long found = 0;
            int lastWanted = -1;
            int pos = 0;
            while (pos < n) {
                int keyEnd = pos;
                byte c;
                while (keyEnd < n && (c = b[keyEnd]) != ' ' && c != '\t' && c != '\n') {
                    keyEnd++;
                }
                if (keyEnd >= n || b[keyEnd] == '\n' || keyEnd == pos) {
                    break; // a line without a value ends what a layout can describe
                }
                int wantedIndex = -1;
                for (int k = 0; k < keys.length; k++) {
                    if ((found & (1L << k)) == 0 && CgroupFileBuffer.keyEquals(keys[k], b, pos, keyEnd)) {
                        wantedIndex = k;
                        found |= 1L << k;
                        break;
                    }
                }
                lines.add(new int[] {keyEnd - pos, b[keyEnd], wantedIndex});
                if (wantedIndex >= 0) {
                    lastWanted = lines.size() - 1;
                }
                pos = keyEnd;
                while (pos < n && b[pos] != '\n') {
                    pos++;
                }
                pos++;
            }
            if (found != all) {
                return null;
            }
            int count = lastWanted + 1;
            int[] keyLengths = new int[count];
            byte[] separators = new byte[count];
            int[] wanted = new int[count];
            for (int i = 0; i < count; i++) {
                int[] line = lines.get(i);
                keyLengths[i] = line[0];
                separators[i] = (byte) line[1];
                wanted[i] = line[2];
            }
            return new Layout(keyLengths, separators, wanted);
        }
    }
}
