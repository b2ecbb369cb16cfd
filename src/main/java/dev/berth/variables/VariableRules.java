package dev.berth.variables;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;

import dev.berth.variables.VariableException.Kind;

/**
 * Nomad's rules for a variable, with Nomad's error texts ({@code nomad/structs/variables.go}): a path of 1 to 128
 * URL-safe characters ({@code a-z A-Z 0-9 - _ ~ /}), the top-level {@code nomad/} directory reserved except for
 * {@code nomad/jobs...}, {@code nomad/sentinel...} and one level below {@code nomad/job-templates}; items at most 64 KiB
 * (key and value bytes added up); a lock TTL between 10 seconds and 24 hours; a write only into a namespace that exists.
 */
public final class VariableRules {

    public static final String DEFAULT_NAMESPACE = "default";
    /** The namespace wildcard, valid for listing only. */
    public static final String ALL_NAMESPACES = "*";
    /** Nomad's cap on a variable's items in clear: the bytes of every key and value added up. */
    public static final int MAX_ITEMS_BYTES = 65_536;
    public static final Duration MIN_LOCK_TTL = Duration.ofSeconds(10);
    public static final Duration MAX_LOCK_TTL = Duration.ofHours(24);
    public static final Duration DEFAULT_LOCK_TTL = Duration.ofSeconds(15);
    public static final Duration DEFAULT_LOCK_DELAY = Duration.ofSeconds(15);

    private static final Pattern VALID_PATH = Pattern.compile("[a-zA-Z0-9\\-_~/]{1,128}");

    private VariableRules() {
    }

    /** Nomad's {@code ValidatePath}. */
    public static void checkPath(String path) {
        if (path == null || path.isEmpty()) {
            throw invalid("variable requires path");
        }
        if (!VALID_PATH.matcher(path).matches()) {
            throw invalid("invalid path \"" + path + "\"");
        }
        String[] parts = path.split("/", -1);
        if (!parts[0].equals("nomad")) {
            return;
        }
        if (parts.length == 1) {
            throw invalid("\"nomad\" is a reserved top-level directory path, but you may write variables to \"nomad/jobs\", "
                    + "\"nomad/job-templates\", \"nomad/sentinel\", or below");
        }
        if (parts[1].equals("jobs") || parts[1].equals("sentinel") || parts[1].equals("job-templates") && parts.length == 3) {
            return;
        }
        if (parts[1].equals("job-templates")) {
            throw invalid("\"nomad/job-templates\" is a reserved directory path, but you may write variables at the level "
                    + "below it, for example, \"nomad/job-templates/template-name\"");
        }
        throw invalid("only paths at \"nomad/jobs\" or \"nomad/job-templates\" and below are valid paths under the "
                + "top-level \"nomad\" directory");
    }

    /** A write's namespace: never the wildcard, and one that exists ({@code exists}: whether it does). */
    public static void checkWritableNamespace(String namespace, String path, boolean exists) {
        if (ALL_NAMESPACES.equals(namespace)) {
            throw invalid("can not target wildcard (\"*\")namespace");
        }
        if (!exists) {
            throw invalid("variable \"" + path + "\" is in nonexistent namespace \"" + namespace + "\"");
        }
    }

    /** Nomad's size of a variable's items: the UTF-8 bytes of every key and value. */
    public static long size(Map<String, String> items) {
        long bytes = 0;
        for (Map.Entry<String, String> e : items.entrySet()) {
            bytes += e.getKey().getBytes(StandardCharsets.UTF_8).length + e.getValue().getBytes(StandardCharsets.UTF_8).length;
        }
        return bytes;
    }

    /** A plain write's items: present and within the size cap. */
    public static void checkItems(Map<String, String> items) {
        if (items.isEmpty()) {
            throw invalid("empty variables are invalid");
        }
        checkSize(items);
    }

    static void checkSize(Map<String, String> items) {
        if (size(items) > MAX_ITEMS_BYTES) {
            throw invalid("variables are limited to 64KiB in total size");
        }
    }

    /** A lock's TTL and delay (after defaults): not negative, the TTL within Nomad's range. */
    public static void checkLock(Duration ttl, Duration lockDelay) {
        java.util.List<String> errors = new java.util.ArrayList<>();
        if (ttl.isNegative() || lockDelay.isNegative()) {
            errors.add("Lock delay and TTL must be positive");
        }
        if (ttl.compareTo(MAX_LOCK_TTL) > 0 || ttl.compareTo(MIN_LOCK_TTL) < 0) {
            errors.add("TTL must be between 10 seconds and 24 hours");
        }
        if (!errors.isEmpty()) {
            throw invalid(multiError(errors));
        }
    }

    /** Nomad collects a lock's errors and prints them as its multi-error list does. */
    static String multiError(java.util.List<String> errors) {
        String points = String.join("\n\t* ", errors);
        return (errors.size() == 1 ? "1 error occurred" : errors.size() + " errors occurred") + ":\n\t* " + points + "\n\n";
    }

    static VariableException invalid(String message) {
        return new VariableException(Kind.INVALID, message);
    }
}
