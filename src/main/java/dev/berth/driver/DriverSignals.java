package dev.berth.driver;

import dev.berth.host.Signals;

/** Signal names in driver calls ({@code kill_signal}, a signal request): an unknown name fails the call. */
public final class DriverSignals {

    private DriverSignals() {
    }

    /** The signal number for a name; {@link DriverException} (not recoverable) naming it when unknown. */
    public static int parse(String name) throws DriverException {
        return Signals.lookup(name).orElseThrow(() -> new DriverException("unknown signal \"" + name + "\"", false));
    }
}
