package dev.berth.fingerprint.host;

import java.util.Map;
import java.util.TreeSet;

import org.springframework.stereotype.Component;

import dev.berth.host.Signals;
import dev.berth.fingerprint.FingerprintRequest;
import dev.berth.fingerprint.FingerprintResult;
import dev.berth.fingerprint.Fingerprinter;

/**
 * {@code os.signals}: every signal name the drivers accept ({@link Signals}, including glibc's aliases), sorted and
 * comma-separated, as Nomad's signal fingerprinter lists its lookup table.
 */
@Component
class SignalFingerprinter implements Fingerprinter {

    @Override
    public String name() {
        return "signal";
    }

    @Override
    public FingerprintResult fingerprint(FingerprintRequest request) {
        return FingerprintResult.ofAttributes(Map.of("os.signals", String.join(",", new TreeSet<>(Signals.all().keySet()))));
    }
}
