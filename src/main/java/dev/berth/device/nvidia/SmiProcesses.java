package dev.berth.device.nvidia;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses the per-process views of {@code nvidia-smi}: {@code --query-compute-apps=pid,gpu_uuid,used_memory
 * --format=csv,noheader,nounits} (one line per compute process and GPU, no output when none runs; {@code used_memory}
 * is {@code [N/A]} where the driver cannot tell, e.g. in MIG mode without privileges) and {@code pmon -c 1 -s u}
 * (two {@code #} header lines naming the columns, then one row per process and GPU, {@code -} where nothing is known).
 */
final class SmiProcesses {

    static final String COMPUTE_APP_FIELDS = "pid,gpu_uuid,used_memory";

    private SmiProcesses() {
    }

    /** One compute process on one GPU; {@code usedMemoryMib} null when unavailable. */
    record ComputeApp(long pid, String gpuUuid, Long usedMemoryMib) {
    }

    /** A pmon row's key: the GPU index and the process. */
    record PmonKey(long gpuIndex, long pid) {
    }

    /** A pmon row's utilization in percent, null where pmon shows {@code -}. */
    record PmonRow(Long smPercent, Long memoryPercent) {
    }

    /** @throws IllegalArgumentException on a line that is not three fields with a numeric pid */
    static List<ComputeApp> parseComputeApps(String output) {
        List<ComputeApp> apps = new ArrayList<>();
        for (String line : output.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] parts = line.split(",", -1);
            if (parts.length != 3) {
                throw new IllegalArgumentException("nvidia-smi compute-apps line has " + parts.length + " fields, expected 3: " + line);
            }
            long pid;
            try {
                pid = Long.parseLong(parts[0].trim());
            }
            catch (NumberFormatException ex) {
                throw new IllegalArgumentException("nvidia-smi compute-apps line has no pid: " + line);
            }
            String uuid = parts[1].trim();
            String memory = parts[2].trim();
            apps.add(new ComputeApp(pid, uuid, SmiGpu.isUnavailable(memory) ? null : parseLong(memory)));
        }
        return apps;
    }

    /** Rows by (GPU index, pid); rows without a pid (an idle GPU) are left out. Columns are found by the header. */
    static Map<PmonKey, PmonRow> parsePmon(String output) {
        Map<PmonKey, PmonRow> rows = new HashMap<>();
        List<String> header = null;
        for (String line : output.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            if (trimmed.startsWith("#")) {
                if (header == null) {
                    header = List.of(trimmed.substring(1).strip().split("\\s+"));
                }
                continue;
            }
            if (header == null) {
                throw new IllegalArgumentException("nvidia-smi pmon output has no header: " + line);
            }
            String[] cells = trimmed.split("\\s+");
            Long gpu = cell(cells, header.indexOf("gpu"));
            Long pid = cell(cells, header.indexOf("pid"));
            if (gpu == null || pid == null) {
                continue;
            }
            rows.put(new PmonKey(gpu, pid), new PmonRow(cell(cells, header.indexOf("sm")), cell(cells, header.indexOf("mem"))));
        }
        return rows;
    }

    private static Long cell(String[] cells, int column) {
        return column < 0 || column >= cells.length ? null : parseLong(cells[column]);
    }

    private static Long parseLong(String value) {
        try {
            return Math.round(Double.parseDouble(value));
        }
        catch (NumberFormatException ex) {
            return null;
        }
    }
}
