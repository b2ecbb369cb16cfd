package dev.berth.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** A learned line layout gives exactly what a key-by-key scan gives, whatever the file does. */
class StatKeysTest {

    private static final String[] WANTED = {"total_rss", "total_cache", "total_inactive_file", "rss"};
    private static final String[] FILE_KEYS = {"cache", "rss", "rss_huge", "mapped_file", "inactive_file",
        "hierarchical_memory_limit", "total_cache", "total_rss", "total_rss_huge", "total_inactive_anon",
        "total_inactive_file", "total_active_file"};

    @TempDir
    Path dir;

    @Test
    void aFileInTheLearnedLayoutGivesTheScansValuesAsTheyGrowAndShrink() throws IOException {
        StatKeys keys = new StatKeys(WANTED);
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            StringBuilder file = new StringBuilder();
            for (String key : FILE_KEYS) {
                file.append(key).append(' ').append(randomValue(random)).append('\n');
            }
            assertSameAsScan(keys, file.toString(), "round " + round);
        }
        assertThat(keys.learned()).isTrue();
    }

    @Test
    void aFileThatLeavesTheLayoutIsScannedKeyByKeyAndTeachesItsOwn() throws IOException {
        StatKeys keys = new StatKeys(WANTED);
        String usual = String.join("", Arrays.stream(FILE_KEYS).map(k -> k + " 1" + k.length() + "\n").toList());
        List<String> others = new ArrayList<>();
        others.add(usual.replace("total_cache 111\n", "")); // a wanted key gone
        others.add(usual.replace("total_rss 19\n", "total_swap 10\n")); // another key of a different length in its place
        others.add(usual.replace("total_rss 19\n", "total_sss 19\n")); // the same length, other bytes
        others.add("extra_first_line 5\n" + usual); // every line moved down
        others.add(usual.replace("rss_huge 18\n", "")); // every later line moved up
        others.add(usual.replace("total_inactive_file 119\n", "total_inactive_file\t77\n")); // another separator
        others.add(usual.substring(0, usual.indexOf("total_inactive_file"))); // cut short before a wanted key
        others.add(usual + "total_rss 999\n"); // a second line of a key: the first counts
        others.add("rss 1\ncache 2\n"); // no hierarchical keys at all
        others.add("");
        others.add("no_value_line\n" + usual);
        for (String other : others) {
            assertSameAsScan(keys, usual, "the usual layout");
            assertSameAsScan(keys, other, other);
            assertSameAsScan(keys, other, "again: " + other);
        }
    }

    @Test
    void onlyAFileWithEveryWantedKeyTeachesALayout() throws IOException {
        StatKeys keys = new StatKeys(WANTED);
        String usual = String.join("", Arrays.stream(FILE_KEYS).map(k -> k + " 3\n").toList());

        assertSameAsScan(keys, usual, "usual");
        assertThat(keys.learned()).isTrue();
        assertSameAsScan(keys, usual.replace("total_rss 3", "total_sss 3"), "a wanted key renamed, same length");
        assertThat(keys.learned()).isFalse();
        assertSameAsScan(keys, usual, "usual again");
        assertThat(keys.learned()).isTrue();
    }

    @Test
    void tabsAndLineEndsOfTheLastLineAreTheScans() throws IOException {
        StatKeys keys = new StatKeys("user", "system");
        assertSameAsScan(keys, "user\t12\nsystem\t34\n", "tabs");
        assertSameAsScan(keys, "user\t13\nsystem\t345", "no line end");
        assertSameAsScan(keys, "user 14\nsystem max\n", "not a number");
        assertSameAsScan(keys, "user 14\nsystem 3456789\n", "spaces after tabs");
    }

    private void assertSameAsScan(StatKeys keys, String content, String description) throws IOException {
        Path file = dir.resolve("stat");
        Files.writeString(file, content);
        CgroupFileBuffer buffer = new CgroupFileBuffer();
        assertThat(buffer.load(file.toString())).isTrue();

        long[] expected = new long[WANTED.length];
        Arrays.fill(expected, Long.MIN_VALUE);
        long expectedFound = buffer.scan(keysOf(keys), expected);
        long[] actual = new long[WANTED.length];
        Arrays.fill(actual, Long.MIN_VALUE);
        long actualFound = keys.scan(buffer, actual);

        assertThat(actualFound).as(description).isEqualTo(expectedFound);
        assertThat(actual).as(description).containsExactly(expected);
    }

    private static byte[][] keysOf(StatKeys keys) {
        return keys.size() == WANTED.length ? CgroupFileBuffer.keys(WANTED) : CgroupFileBuffer.keys("user", "system");
    }

    private static String randomValue(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> "0";
            case 1 -> Integer.toString(random.nextInt(1000));
            case 2 -> Long.toString(random.nextLong() & Long.MAX_VALUE);
            default -> Integer.toString(random.nextInt());
        };
    }
}
