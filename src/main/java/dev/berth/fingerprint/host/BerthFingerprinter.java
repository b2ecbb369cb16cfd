package dev.berth.fingerprint.host;

import java.util.Map;

import org.springframework.stereotype.Component;

import dev.berth.fingerprint.FingerprintRequest;
import dev.berth.fingerprint.FingerprintResult;
import dev.berth.fingerprint.Fingerprinter;

/**
 * The agent itself (Nomad's {@code nomad} fingerprinter): {@code berth.version}, and {@code nomad.version} set to
 * the Nomad client API level Berth implements, so job constraints on {@code ${attr.nomad.version}} keep working.
 */
@Component
class BerthFingerprinter implements Fingerprinter {

    /** The Nomad version whose client API and attributes Berth follows. */
    static final String NOMAD_COMPAT_VERSION = "1.10.0";

    @Override
    public String name() {
        return "berth";
    }

    @Override
    public FingerprintResult fingerprint(FingerprintRequest request) {
        return FingerprintResult.ofAttributes(Map.of(
                "berth.version", version(),
                "nomad.version", NOMAD_COMPAT_VERSION));
    }

    /** The version from the jar manifest; {@code dev} when running from classes (tests, IDE). */
    static String version() {
        String version = BerthFingerprinter.class.getPackage().getImplementationVersion();
        return version == null || version.isBlank() ? "dev" : version;
    }
}
