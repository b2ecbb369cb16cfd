package dev.berth.driver;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Map;

/**
 * The one Go duration parser and formatter of the agent ({@code time.ParseDuration}, {@code time.Duration.String()}):
 * {@code "250ms"}, {@code "1s"}, {@code "1m30s"}, {@code "1.5h"}, {@code "-2s"}. Units {@code ns}, {@code us}/{@code µs},
 * {@code ms}, {@code s}, {@code m}, {@code h}; a bare {@code "0"} is zero as in Go, any other number needs a unit.
 * Driver configs, jobspecs and the API's {@code ?wait=} all parse with it; what a caller does with an empty or a
 * negative value (a driver config's empty is zero, a query's negative wait is refused) is the caller's rule.
 */
public final class GoDuration {

    private static final Map<String, Long> UNIT_NANOS = Map.of(
            "ns", 1L, "us", 1_000L, "µs", 1_000L, "μs", 1_000L, "ms", 1_000_000L,
            "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);

    private GoDuration() {
    }

    /**
     * The duration {@code text} spells, truncated to whole nanoseconds as Go does.
     *
     * @throws IllegalArgumentException with Go's message: {@code time: invalid duration "x"} (empty, malformed or beyond
     *         ±292 years), {@code time: missing unit in duration "10"}, {@code time: unknown unit "x" in duration "5x"}
     */
    public static Duration parse(String text) {
        if (text == null || text.isEmpty()) {
            throw invalid(text == null ? "" : text);
        }
        String s = text;
        boolean negative = false;
        if (s.charAt(0) == '-' || s.charAt(0) == '+') {
            negative = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        if (s.isEmpty()) {
            throw invalid(text);
        }
        BigDecimal totalNanos = BigDecimal.ZERO;
        int i = 0;
        while (i < s.length()) {
            int numberStart = i;
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            String number = s.substring(numberStart, i);
            if (number.isEmpty() || number.equals(".") || number.indexOf('.') != number.lastIndexOf('.')) {
                throw invalid(text);
            }
            int unitStart = i;
            while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
                i++;
            }
            Long unit = UNIT_NANOS.get(s.substring(unitStart, i));
            if (unit == null) {
                throw unitStart == i
                        ? new IllegalArgumentException("time: missing unit in duration \"" + text + "\"")
                        : new IllegalArgumentException("time: unknown unit \"" + s.substring(unitStart, i)
                                + "\" in duration \"" + text + "\"");
            }
            totalNanos = totalNanos.add(new BigDecimal(number).multiply(BigDecimal.valueOf(unit)));
        }
        try {
            // signed before the range check: Go takes "-9223372036854775808ns", not its positive
            return Duration.ofNanos((negative ? totalNanos.negate() : totalNanos).setScale(0, RoundingMode.DOWN).longValueExact());
        } catch (ArithmeticException overflow) {
            throw invalid(text);
        }
    }

    /**
     * Formats like Go's {@code time.Duration.String()}: {@code 0s}, {@code 1.5ms}, {@code 15s}, {@code 30m0s},
     * {@code 24h0m0s}, {@code 1m30.5s}. Used where Nomad's messages print durations.
     */
    public static String format(Duration duration) {
        long nanos = duration.toNanos();
        if (nanos == 0) {
            return "0s";
        }
        String sign = nanos < 0 ? "-" : "";
        long u = Math.abs(nanos);
        if (u < 1_000L) {
            return sign + u + "ns";
        }
        if (u < 1_000_000L) {
            return sign + fraction(u, 1_000L) + "µs";
        }
        if (u < 1_000_000_000L) {
            return sign + fraction(u, 1_000_000L) + "ms";
        }
        long hours = u / 3_600_000_000_000L;
        long minutes = (u / 60_000_000_000L) % 60;
        String seconds = fraction(u % 60_000_000_000L, 1_000_000_000L) + "s";
        if (hours > 0) {
            return sign + hours + "h" + minutes + "m" + seconds;
        }
        if (minutes > 0) {
            return sign + minutes + "m" + seconds;
        }
        return sign + seconds;
    }

    private static String fraction(long value, long unit) {
        BigDecimal d = BigDecimal.valueOf(value).divide(BigDecimal.valueOf(unit)).stripTrailingZeros();
        return d.scale() <= 0 ? d.setScale(0).toPlainString() : d.toPlainString();
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("time: invalid duration \"" + text + "\"");
    }
}
