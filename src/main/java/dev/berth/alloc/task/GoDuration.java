package dev.berth.alloc.task;

import java.math.BigDecimal;
import java.time.Duration;

/** Formats a duration like Go's {@code time.Duration.String()} ({@code 5s}, {@code 1m30s}, {@code 15.5s}, {@code 2h0m0s}). */
public final class GoDuration {

    private GoDuration() {
    }

    public static String format(Duration d) {
        long ns = d.toNanos();
        if (ns == 0) {
            return "0s";
        }
        String sign = ns < 0 ? "-" : "";
        ns = Math.abs(ns);
        if (ns < 1_000) {
            return sign + ns + "ns";
        }
        if (ns < 1_000_000) {
            return sign + decimal(ns, 1_000) + "µs";
        }
        if (ns < 1_000_000_000) {
            return sign + decimal(ns, 1_000_000) + "ms";
        }
        long hours = ns / 3_600_000_000_000L;
        long rem = ns % 3_600_000_000_000L;
        long minutes = rem / 60_000_000_000L;
        long secNs = rem % 60_000_000_000L;
        String secs = decimal(secNs, 1_000_000_000) + "s";
        if (hours > 0) {
            return sign + hours + "h" + minutes + "m" + secs;
        }
        if (minutes > 0) {
            return sign + minutes + "m" + secs;
        }
        return sign + secs;
    }

    private static String decimal(long value, long unit) {
        return new BigDecimal(value).divide(new BigDecimal(unit)).stripTrailingZeros().toPlainString();
    }
}
