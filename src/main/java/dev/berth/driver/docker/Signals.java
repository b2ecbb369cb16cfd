package dev.berth.driver.docker;

import java.util.Locale;
import java.util.Set;

import dev.berth.driver.DriverException;

/** POSIX signal names the engine understands. Unknown names are refused, never mapped to a default. */
final class Signals {

    static final Set<String> NAMES = Set.of("SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE",
            "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT",
            "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH",
            "SIGIO", "SIGPWR", "SIGSYS");

    private Signals() {
    }

    /** The canonical name ({@code SIGUSR1}) for {@code name} ({@code usr1}, {@code SIGUSR1}); throws if unknown. */
    static String require(String name) throws DriverException {
        String upper = name == null ? "" : name.trim().toUpperCase(Locale.ROOT);
        String canonical = upper.startsWith("SIG") ? upper : "SIG" + upper;
        if (!NAMES.contains(canonical)) {
            throw new DriverException("unknown signal \"" + name + "\"", false);
        }
        return canonical;
    }
}
