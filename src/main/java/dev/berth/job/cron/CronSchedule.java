package dev.berth.job.cron;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import com.cronutils.model.definition.CronDefinition;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;

/**
 * A periodic job's schedule as Nomad reads it (hashicorp/cronexpr): one or more cron expressions of 5 fields (minute hour
 * day-of-month month day-of-week), 6 (… year) or 7 (second … year), or a macro ({@code @yearly @annually @monthly @weekly
 * @daily @midnight @hourly}), in a time zone; the next launch is the earliest next time of any of them. Expressions are
 * evaluated by cron-utils on a 7-field definition (seconds and year added where the short forms leave them out).
 */
public final class CronSchedule {

    private static final CronDefinition SEVEN_FIELDS = CronDefinitionBuilder.defineCron()
            .withSeconds().and()
            .withMinutes().and()
            .withHours().and()
            .withDayOfMonth().supportsL().supportsW().supportsLW().supportsQuestionMark().and()
            .withMonth().and()
            .withDayOfWeek().withValidRange(0, 7).withMondayDoWValue(1).withIntMapping(7, 0)
            .supportsHash().supportsL().supportsQuestionMark().and()
            .withYear().withValidRange(1970, 2099).and()
            .instance();
    private static final CronParser PARSER = new CronParser(SEVEN_FIELDS);
    private static final Map<String, String> MACROS = Map.of(
            "@yearly", "0 0 0 1 1 * *", "@annually", "0 0 0 1 1 * *", "@monthly", "0 0 0 1 * * *",
            "@weekly", "0 0 0 * * 0 *", "@daily", "0 0 0 * * * *", "@midnight", "0 0 0 * * * *", "@hourly", "0 0 * * * * *");

    private final List<ExecutionTime> times;
    private final ZoneId zone;

    private CronSchedule(List<ExecutionTime> times, ZoneId zone) {
        this.times = times;
        this.zone = zone;
    }

    /** Thrown for an expression or time zone Nomad would refuse; the message is Nomad's. */
    public static final class InvalidScheduleException extends Exception {
        public InvalidScheduleException(String message) {
            super(message);
        }
    }

    /** Parses {@code specs} (at least one) in {@code timeZone} ("" or null: UTC). */
    public static CronSchedule parse(List<String> specs, String timeZone) throws InvalidScheduleException {
        ZoneId zone;
        try {
            zone = timeZone == null || timeZone.isEmpty() || "UTC".equals(timeZone) ? ZoneId.of("UTC") : ZoneId.of(timeZone);
        } catch (DateTimeException e) {
            throw new InvalidScheduleException("Invalid time zone \"" + timeZone + "\": unknown time zone " + timeZone);
        }
        if (specs.isEmpty()) {
            throw new InvalidScheduleException("Must specify a spec");
        }
        List<ExecutionTime> times = new ArrayList<>();
        for (String spec : specs) {
            times.add(ExecutionTime.forCron(PARSER.parse(sevenFields(spec))));
        }
        return new CronSchedule(times, zone);
    }

    /** The 7-field form of a Nomad cron expression (macro expanded, seconds and year added). */
    static String sevenFields(String spec) throws InvalidScheduleException {
        String s = spec == null ? "" : spec.trim();
        if (s.startsWith("@")) {
            String m = MACROS.get(s.toLowerCase(Locale.ROOT));
            if (m == null) {
                throw invalid(spec, "unknown macro");
            }
            return m;
        }
        String[] f = s.isEmpty() ? new String[0] : s.split("\\s+");
        String out = switch (f.length) {
            case 5 -> "0 " + s + " *";
            case 6 -> "0 " + s;
            case 7 -> s;
            default -> throw invalid(spec, "missing field(s)");
        };
        try {
            PARSER.parse(out).validate();
        } catch (IllegalArgumentException e) {
            throw invalid(spec, e.getMessage());
        }
        return out;
    }

    private static InvalidScheduleException invalid(String spec, String why) {
        return new InvalidScheduleException("Invalid cron spec \"" + spec + "\": " + why);
    }

    public ZoneId zone() {
        return zone;
    }

    /** The earliest launch strictly after {@code from} (in the schedule's zone); empty if none will come. */
    public Optional<ZonedDateTime> next(ZonedDateTime from) {
        ZonedDateTime at = from.withZoneSameInstant(zone);
        ZonedDateTime best = null;
        for (ExecutionTime t : times) {
            Optional<ZonedDateTime> n = t.nextExecution(at);
            if (n.isPresent() && (best == null || n.get().isBefore(best))) {
                best = n.get();
            }
        }
        return Optional.ofNullable(best);
    }
}
