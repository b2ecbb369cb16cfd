package dev.berth.stats;

/**
 * The {@code /proc/meminfo} fields gopsutil's {@code VirtualMemory} uses, in bytes.
 */
record Meminfo(long total, long free, long available, boolean hasAvailable, long buffers, long cached, long sReclaimable) {

    static Meminfo parse(String text) {
        long total = -1, free = 0, available = 0, buffers = 0, cached = 0, sReclaimable = 0;
        boolean hasAvailable = false;
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon);
            switch (key) {
                case "MemTotal" -> total = kib(line, colon);
                case "MemFree" -> free = kib(line, colon);
                case "MemAvailable" -> {
                    available = kib(line, colon);
                    hasAvailable = true;
                }
                case "Buffers" -> buffers = kib(line, colon);
                case "Cached" -> cached = kib(line, colon);
                case "SReclaimable" -> sReclaimable = kib(line, colon);
                default -> {
                }
            }
        }
        if (total < 0) {
            throw new IllegalArgumentException("no MemTotal in meminfo");
        }
        return new Meminfo(total, free, available, hasAvailable, buffers, cached, sReclaimable);
    }

    /** gopsutil v3: Cached includes SReclaimable; Used = Total − Free − Buffers − Cached; Available falls back to
     *  Free + Cached on kernels without MemAvailable. */
    HostMemoryStats toStats() {
        long cachedAll = cached + sReclaimable;
        long avail = hasAvailable ? available : free + cachedAll;
        long used = Math.max(0, total - free - buffers - cachedAll);
        return new HostMemoryStats(total, avail, used, free);
    }

    private static long kib(String line, int colon) {
        String value = line.substring(colon + 1).trim();
        int space = value.indexOf(' ');
        long number = Long.parseLong(space < 0 ? value : value.substring(0, space));
        return value.endsWith("kB") ? number * 1024 : number;
    }
}
