package dev.berth.fingerprint;

/** Node status; {@link #wireName()} is Nomad's string. */
public enum NodeStatus {
    /** Before the first full fingerprint (host and drivers) completed. */
    INITIALIZING("initializing"),
    /** Fingerprinted; accepting allocations. */
    READY("ready");

    private final String wireName;

    NodeStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
