package dev.berth.fingerprint;

import java.util.Objects;

/**
 * What a {@link Fingerprinter} gets to work with.
 *
 * @param node the node as it is before this fingerprint (e.g. to read another fingerprinter's attributes)
 */
public record FingerprintRequest(Node node) {

    public FingerprintRequest {
        Objects.requireNonNull(node, "'node' must not be null");
    }
}
