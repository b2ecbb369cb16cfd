package dev.berth.fingerprint;

import java.time.Duration;
import java.util.Optional;

/**
 * A host fingerprinter: discovers facts about this machine (attributes like {@code cpu.numcores}) and the resources it
 * offers. Implementations are Spring beans; the {@link FingerprintManager} runs every one once at start, sorted by
 * {@link #name()}, then the periodic ones every {@link #period()}.
 *
 * <p>Contract:
 * <ul>
 *   <li>{@link #fingerprint} is never called concurrently with itself; it may block briefly (file and OSHI reads) but
 *   must not wait on the network.</li>
 *   <li>A result replaces everything this fingerprinter reported before: attribute keys it reported last time and not
 *   this time are removed from the node; resources and links it leaves null are left as they are.</li>
 *   <li>Throwing reports a failure: the node keeps the previous values, and a periodic fingerprinter is called again
 *   on its next period (unlike Nomad, whose periodic fingerprinters stop for good after one error).</li>
 * </ul>
 */
public interface Fingerprinter {

    /** Unique name, e.g. {@code cpu}; also the sort key of the first run. */
    String name();

    /** How often to run again after the first run; empty (the default) runs only once at start. */
    default Optional<Duration> period() {
        return Optional.empty();
    }

    /** Fingerprints the host now. */
    FingerprintResult fingerprint(FingerprintRequest request) throws Exception;
}
