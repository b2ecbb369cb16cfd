package dev.berth.fingerprint.host;

import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Component;

import dev.berth.fingerprint.FingerprintRequest;
import dev.berth.fingerprint.FingerprintResult;
import dev.berth.fingerprint.Fingerprinter;

/** {@code os.signals}: the signal names tasks may use on Linux, sorted, comma-separated (as Nomad's signal lookup table). */
@Component
class SignalFingerprinter implements Fingerprinter {

    static final List<String> LINUX_SIGNALS = List.of(
            "SIGABRT", "SIGALRM", "SIGBUS", "SIGCHLD", "SIGCONT", "SIGFPE", "SIGHUP", "SIGILL", "SIGINT", "SIGIO",
            "SIGIOT", "SIGKILL", "SIGPIPE", "SIGPROF", "SIGPWR", "SIGQUIT", "SIGSEGV", "SIGSTKFLT", "SIGSTOP", "SIGSYS",
            "SIGTERM", "SIGTRAP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGUSR1", "SIGUSR2", "SIGVTALRM",
            "SIGWINCH", "SIGXCPU", "SIGXFSZ");

    @Override
    public String name() {
        return "signal";
    }

    @Override
    public FingerprintResult fingerprint(FingerprintRequest request) {
        return FingerprintResult.ofAttributes(Map.of("os.signals", String.join(",", LINUX_SIGNALS)));
    }
}
