package dev.berth.device;

import java.util.Set;

/**
 * The units a device attribute may carry: Nomad's list ({@code plugins/shared/structs/units.go}). A unit is only valid
 * together with an int or float value, never with a string or bool.
 */
public final class DeviceUnits {

    private static final Set<String> KNOWN = Set.of(
            // bytes
            "B", "KB", "KiB", "MB", "MiB", "GB", "GiB", "TB", "TiB", "PB", "PiB", "EB", "EiB",
            // byte rates
            "B/s", "KB/s", "KiB/s", "MB/s", "MiB/s", "GB/s", "GiB/s", "TB/s", "TiB/s", "PB/s", "PiB/s", "EB/s", "EiB/s",
            // bit rates
            "b/s", "Kb/s", "Mb/s", "Gb/s", "Tb/s", "Pb/s", "Eb/s",
            // frequency
            "Hz", "MHz", "GHz",
            // power
            "mW", "W", "kW", "MW", "GW");

    private DeviceUnits() {
    }

    public static boolean isKnown(String unit) {
        return KNOWN.contains(unit);
    }
}
