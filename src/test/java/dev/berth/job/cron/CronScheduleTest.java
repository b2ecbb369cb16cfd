package dev.berth.job.cron;

import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Nomad's cron forms (hashicorp/cronexpr): 5, 6 and 7 fields, macros, several specs, time zones, bad input. */
class CronScheduleTest {

    static final ZonedDateTime FROM = ZonedDateTime.of(2026, 11, 26, 10, 7, 30, 0, ZoneId.of("UTC")); // a Thursday

    ZonedDateTime next(String spec) throws Exception {
        return CronSchedule.parse(List.of(spec), "UTC").next(FROM).orElseThrow();
    }

    @Test
    void fiveFieldsAreMinuteHourDayMonthWeekday() throws Exception {
        assertThat(next("*/15 * * * *")).isEqualTo(FROM.withMinute(15).withSecond(0));
        assertThat(next("0 12 * * *")).isEqualTo(FROM.withHour(12).withMinute(0).withSecond(0));
        assertThat(next("30 2 * * 1")).isEqualTo(ZonedDateTime.of(2026, 11, 30, 2, 30, 0, 0, ZoneId.of("UTC")));
        // Sunday is 0 and 7; names work
        assertThat(next("0 0 * * 7")).isEqualTo(next("0 0 * * 0")).isEqualTo(next("0 0 * * SUN"));
        assertThat(next("0 0 1 JAN *")).isEqualTo(ZonedDateTime.of(2027, 1, 1, 0, 0, 0, 0, ZoneId.of("UTC")));
    }

    @Test
    void sixFieldsEndWithTheYearAndSevenStartWithSeconds() throws Exception {
        assertThat(next("0 0 1 1 * 2030")).isEqualTo(ZonedDateTime.of(2030, 1, 1, 0, 0, 0, 0, ZoneId.of("UTC")));
        assertThat(next("*/10 * * * * * *")).isEqualTo(FROM.withSecond(40));
        assertThat(CronSchedule.parse(List.of("0 0 1 1 * 2020"), "UTC").next(FROM)).isEmpty();
    }

    @Test
    void macros() throws Exception {
        assertThat(next("@hourly")).isEqualTo(FROM.withHour(11).withMinute(0).withSecond(0));
        assertThat(next("@daily")).isEqualTo(next("@midnight")).isEqualTo(ZonedDateTime.of(2026, 11, 27, 0, 0, 0, 0, ZoneId.of("UTC")));
        assertThat(next("@weekly")).isEqualTo(ZonedDateTime.of(2026, 11, 29, 0, 0, 0, 0, ZoneId.of("UTC")));
        assertThat(next("@monthly")).isEqualTo(ZonedDateTime.of(2026, 12, 1, 0, 0, 0, 0, ZoneId.of("UTC")));
        assertThat(next("@yearly")).isEqualTo(next("@annually")).isEqualTo(ZonedDateTime.of(2027, 1, 1, 0, 0, 0, 0, ZoneId.of("UTC")));
    }

    @Test
    void theEarliestOfSeveralSpecsWinsAndTheNextIsStrictlyAfter() throws Exception {
        CronSchedule s = CronSchedule.parse(List.of("0 12 * * *", "*/20 * * * *"), "UTC");
        assertThat(s.next(FROM)).contains(FROM.withMinute(20).withSecond(0));
        assertThat(s.next(FROM.withMinute(20).withSecond(0))).contains(FROM.withMinute(40).withSecond(0));
    }

    @Test
    void aTimeZoneMovesTheLaunch() throws Exception {
        CronSchedule s = CronSchedule.parse(List.of("0 9 * * *"), "America/New_York");
        assertThat(s.next(FROM).orElseThrow().toInstant())
                .isEqualTo(ZonedDateTime.of(2026, 11, 26, 14, 0, 0, 0, ZoneId.of("UTC")).toInstant());
    }

    @Test
    void badSpecsAndZonesAreRefusedWithNomadsWords() {
        assertThatThrownBy(() -> CronSchedule.parse(List.of("* * *"), "UTC")).hasMessageStartingWith("Invalid cron spec \"* * *\"");
        assertThatThrownBy(() -> CronSchedule.parse(List.of("61 * * * *"), "UTC")).hasMessageStartingWith("Invalid cron spec");
        assertThatThrownBy(() -> CronSchedule.parse(List.of("@often"), "UTC")).hasMessageStartingWith("Invalid cron spec");
        assertThatThrownBy(() -> CronSchedule.parse(List.of("* * * * *"), "Mars/Olympus")).hasMessageStartingWith("Invalid time zone");
    }
}
