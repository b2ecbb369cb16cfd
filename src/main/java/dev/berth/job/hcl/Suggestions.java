package dev.berth.job.hcl;

import java.util.Collection;

/** HCL's "Did you mean" rule: the first candidate within an edit distance of 2 of what was written. */
final class Suggestions {

    private Suggestions() {
    }

    static String closest(String given, Collection<String> candidates) {
        for (String c : candidates) {
            if (distance(given, c) < 3) {
                return c;
            }
        }
        return null;
    }

    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
