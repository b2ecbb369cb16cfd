package dev.berth.host;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;


/**
 * The Linux signal table (x86-64/arm64 numbering). Names are accepted with or without the {@code SIG} prefix and in
 * any case: {@code SIGUSR1}, {@code USR1}, {@code sigusr1}. An unknown name is an error, never a silent default.
 */
public final class Signals {

    public static final int SIGHUP = 1;
    public static final int SIGINT = 2;
    public static final int SIGKILL = 9;
    public static final int SIGTERM = 15;

    private static final Map<String, Integer> BY_NAME;

    static {
        Map<String, Integer> m = new LinkedHashMap<>();
        String[] names = {"HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2",
                "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU",
                "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS"};
        for (int i = 0; i < names.length; i++) {
            m.put("SIG" + names[i], i + 1);
        }
        // Aliases glibc defines.
        m.put("SIGIOT", 6);
        m.put("SIGCLD", 17);
        m.put("SIGPOLL", 29);
        m.put("SIGUNUSED", 31);
        BY_NAME = Collections.unmodifiableMap(m);
    }

    private Signals() {
    }

    /** The signal number for a name, if the name is known. */
    public static Optional<Integer> lookup(String name) {
        if (name == null || name.isBlank()) {
            return Optional.empty();
        }
        String upper = name.trim().toUpperCase(Locale.ROOT);
        return Optional.ofNullable(BY_NAME.get(upper.startsWith("SIG") ? upper : "SIG" + upper));
    }

    /** The canonical name ({@code SIGTERM}) of a signal number, or {@code SIG<n>} when it has none. */
    public static String name(int signal) {
        return BY_NAME.entrySet().stream().filter(e -> e.getValue() == signal).map(Map.Entry::getKey).findFirst()
                .orElse("SIG" + signal);
    }

    /** All canonical names and numbers, in signal order (aliases included). */
    public static Map<String, Integer> all() {
        return BY_NAME;
    }
}
