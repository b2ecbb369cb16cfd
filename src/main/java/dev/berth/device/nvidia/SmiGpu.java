package dev.berth.device.nvidia;

import java.util.List;

/**
 * One line of {@code nvidia-smi --query-gpu=… --format=csv,noheader,nounits}: the values of {@link #FIELDS} in order,
 * with every unavailable value ({@code [N/A]}, {@code N/A}, {@code [Not Supported]}, {@code [Unknown Error]}) as null.
 */
record SmiGpu(List<String> values) {

    /** The queried fields, in column order. */
    static final List<String> FIELDS = List.of(
            "uuid", "name", "pci.bus_id",
            "memory.total", "memory.used",
            "utilization.gpu", "utilization.memory",
            "power.draw", "power.limit",
            "temperature.gpu",
            "clocks.max.sm", "clocks.max.memory",
            "driver_version", "display_mode", "persistence_mode",
            "ecc.errors.uncorrected.volatile.l1_cache", "ecc.errors.uncorrected.volatile.l2_cache",
            "ecc.errors.uncorrected.volatile.device_memory",
            "index", "mig.mode.current");

    static final int UUID = 0, NAME = 1, PCI_BUS_ID = 2, MEMORY_TOTAL = 3, MEMORY_USED = 4, UTIL_GPU = 5, UTIL_MEMORY = 6,
            POWER_DRAW = 7, POWER_LIMIT = 8, TEMPERATURE = 9, CLOCK_SM = 10, CLOCK_MEMORY = 11, DRIVER_VERSION = 12,
            DISPLAY_MODE = 13, PERSISTENCE_MODE = 14, ECC_L1 = 15, ECC_L2 = 16, ECC_MEMORY = 17, INDEX = 18, MIG_MODE = 19;

    /** Parses one CSV line; throws {@link IllegalArgumentException} when the column count is wrong. */
    static SmiGpu parse(String line) {
        String[] parts = line.split(",", -1);
        if (parts.length != FIELDS.size()) {
            throw new IllegalArgumentException("nvidia-smi line has " + parts.length + " fields, expected " + FIELDS.size() + ": " + line);
        }
        java.util.ArrayList<String> values = new java.util.ArrayList<>(parts.length);
        for (String part : parts) {
            String value = part.trim();
            values.add(isUnavailable(value) ? null : value);
        }
        return new SmiGpu(java.util.Collections.unmodifiableList(values));
    }

    static boolean isUnavailable(String value) {
        return value.isEmpty() || value.equals("N/A") || (value.startsWith("[") && value.endsWith("]"));
    }

    /** The raw value, or null when unavailable. */
    String text(int column) {
        return values.get(column);
    }

    /** The value rounded to a long, or null when unavailable or not a number. */
    Long number(int column) {
        String value = values.get(column);
        if (value == null) {
            return null;
        }
        try {
            return Math.round(Double.parseDouble(value));
        }
        catch (NumberFormatException ex) {
            return null;
        }
    }

    /** Whether the GPU is in MIG mode now ({@code mig.mode.current} {@code Enabled}; {@code [N/A]} without MIG). */
    boolean migEnabled() {
        return "Enabled".equalsIgnoreCase(text(MIG_MODE));
    }

    /** The GPU's index (as {@code nvidia-smi pmon} and dcgm-exporter name it), or null. */
    Long index() {
        return number(INDEX);
    }

    String uuid() {
        return text(UUID);
    }

    /** The model; {@code N/A} when unknown, as Nomad names such a group. */
    String model() {
        String name = text(NAME);
        return name == null ? "N/A" : name;
    }
}
