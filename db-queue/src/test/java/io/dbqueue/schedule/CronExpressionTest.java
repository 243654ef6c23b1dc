package io.dbqueue.schedule;

import io.dbqueue.common.InvalidValueException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CronExpressionTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @ParameterizedTest(name = "{0} after {1} is {2}")
    @CsvSource(delimiter = '|', value = {
            "* * * * *             | 2026-05-04T10:00:30Z | 2026-05-04T10:01:00Z",
            "* * * * *             | 2026-05-04T10:00:00Z | 2026-05-04T10:01:00Z",
            "*/15 * * * *          | 2026-05-04T10:16:00Z | 2026-05-04T10:30:00Z",
            "*/10 * * * * *        | 2026-05-04T10:00:05Z | 2026-05-04T10:00:10Z",
            "30 * * * * *          | 2026-05-04T10:00:30Z | 2026-05-04T10:01:30Z",
            "0 9-17/2 * * MON-FRI  | 2026-05-04T17:00:00Z | 2026-05-05T09:00:00Z",
            "0 9-17/2 * * mon-fri  | 2026-05-08T17:30:00Z | 2026-05-11T09:00:00Z",
            "0 0 1 JAN,jul *       | 2026-02-01T00:00:00Z | 2026-07-01T00:00:00Z",
            "5/20 * * * *          | 2026-05-04T10:46:00Z | 2026-05-04T11:05:00Z",
            "1,15,30-32 * * * *    | 2026-05-04T10:30:00Z | 2026-05-04T10:31:00Z",
            "0 12 * * 0            | 2026-05-04T00:00:00Z | 2026-05-10T12:00:00Z",
            "0 12 * * 7            | 2026-05-04T00:00:00Z | 2026-05-10T12:00:00Z",
            "0 12 * * SUN          | 2026-05-04T00:00:00Z | 2026-05-10T12:00:00Z",
            "0 12 ? * *            | 2026-05-04T12:00:00Z | 2026-05-05T12:00:00Z",
            "0 0 31 * *            | 2026-01-31T00:00:00Z | 2026-03-31T00:00:00Z",
            "0 0 29 2 *            | 2025-01-01T00:00:00Z | 2028-02-29T00:00:00Z",
            // both day fields restricted: either matches (the 1st, and Mondays)
            "0 9 1 * MON           | 2026-05-01T10:00:00Z | 2026-05-04T09:00:00Z",
            "0 9 1 * MON           | 2026-05-25T10:00:00Z | 2026-06-01T09:00:00Z",
            // a day field starting with * is unrestricted for that rule (Vixie cron): Mondays with an odd date
            "0 9 */2 * MON         | 2026-05-01T10:00:00Z | 2026-05-11T09:00:00Z",
            // one restricted: both must match (the 13th when it is a Friday)
            "0 0 13 * *            | 2026-01-14T00:00:00Z | 2026-02-13T00:00:00Z",
            "59 23 31 12 *         | 2026-12-31T23:59:00Z | 2027-12-31T23:59:00Z",
            // a date on a weekday can be decades away: 29 February on a Sunday, and across 2100, which has none
            "0 0 29 2 */7          | 2032-03-01T00:00:00Z | 2060-02-29T00:00:00Z",
            "0 0 29 2 */7          | 2088-03-01T00:00:00Z | 2128-02-29T00:00:00Z",
    })
    void nextMatchingTimeInUtc(String cron, String after, String expected) {
        assertEquals(Instant.parse(expected), CronExpression.parse(cron).next(Instant.parse(after), ZoneOffset.UTC));
    }

    @Test
    void evaluatesInTheGivenZone() {
        CronExpression nine = CronExpression.parse("0 9 * * *");
        assertEquals(Instant.parse("2026-01-15T08:00:00Z"), nine.next(Instant.parse("2026-01-15T00:00:00Z"), BERLIN));
        assertEquals(Instant.parse("2026-07-15T07:00:00Z"), nine.next(Instant.parse("2026-07-15T00:00:00Z"), BERLIN));
    }

    @Test
    void aTimeTheSpringGapSkipsRunsShiftedByTheGap() {
        // 2026-03-29 in Berlin: 02:00 +01:00 becomes 03:00 +02:00
        CronExpression half = CronExpression.parse("30 2 * * *");
        Instant before = OffsetDateTime.parse("2026-03-29T01:00+01:00").toInstant();
        Instant shifted = half.next(before, BERLIN);
        assertEquals(OffsetDateTime.parse("2026-03-29T03:30+02:00").toInstant(), shifted);
        assertEquals(OffsetDateTime.parse("2026-03-30T02:30+02:00").toInstant(), half.next(shifted, BERLIN));
    }

    /** After the jump, a time the gap skipped is still to come until its shifted time: a catch-up at 03:10 runs it. */
    @Test
    void aTimeTheSpringGapShiftsIsNextUntilItsShiftedTimeHasPassed() {
        CronExpression half = CronExpression.parse("30 2 * * *");
        assertEquals(OffsetDateTime.parse("2026-03-29T03:30+02:00").toInstant(),
                half.next(OffsetDateTime.parse("2026-03-29T03:10+02:00").toInstant(), BERLIN));
        assertEquals(OffsetDateTime.parse("2026-03-29T03:30+02:00").toInstant(),
                half.next(OffsetDateTime.parse("2026-03-29T03:00+02:00").toInstant(), BERLIN), "at the jump");
        assertEquals(OffsetDateTime.parse("2026-03-30T02:30+02:00").toInstant(),
                half.next(OffsetDateTime.parse("2026-03-29T03:30+02:00").toInstant(), BERLIN));
        // 02:05 shifted to 03:05 has passed, 02:35 shifted and 03:35 are one time
        assertEquals(OffsetDateTime.parse("2026-03-29T03:35+02:00").toInstant(), CronExpression.parse("5,35 2,3 * * *")
                .next(OffsetDateTime.parse("2026-03-29T03:10+02:00").toInstant(), BERLIN));
    }

    /** A gap of half an hour (Lord Howe: 02:00 becomes 02:30): 02:20, shifted to 02:50, runs after a real 02:35. */
    @Test
    void aShiftedTimeOfAShortGapRunsAfterTheRealTimesBeforeIt() {
        ZoneId lordHowe = ZoneId.of("Australia/Lord_Howe");
        List<Instant> ticks = new ArrayList<>();
        Instant t = OffsetDateTime.parse("2026-10-04T01:00+10:30").toInstant();
        for (int i = 0; i < 3; i++) {
            t = CronExpression.parse("20,35 2 * * *").next(t, lordHowe);
            ticks.add(t);
        }
        assertEquals(List.of(
                OffsetDateTime.parse("2026-10-04T02:35+11:00").toInstant(),
                OffsetDateTime.parse("2026-10-04T02:50+11:00").toInstant(), // 02:20, shifted
                OffsetDateTime.parse("2026-10-05T02:20+11:00").toInstant()), ticks);
        assertEquals(OffsetDateTime.parse("2026-10-04T02:35+11:00").toInstant(), CronExpression.parse("20,35 2 * * *")
                .next(OffsetDateTime.parse("2026-10-04T02:30+11:00").toInstant(), lordHowe), "at the jump");
    }

    @Test
    void everyHalfHourThroughTheSpringGapKeepsRealHalfHours() {
        List<Instant> ticks = ticks("*/30 * * * *", OffsetDateTime.parse("2026-03-29T01:00+01:00").toInstant(), 4);
        assertEquals(List.of(
                OffsetDateTime.parse("2026-03-29T01:30+01:00").toInstant(),
                OffsetDateTime.parse("2026-03-29T03:00+02:00").toInstant(), // 02:00, shifted
                OffsetDateTime.parse("2026-03-29T03:30+02:00").toInstant(),
                OffsetDateTime.parse("2026-03-29T04:00+02:00").toInstant()), ticks);
    }

    @Test
    void aTimeTheAutumnOverlapRepeatsRunsOnceAtItsFirstOccurrence() {
        // 2026-10-25 in Berlin: 03:00 +02:00 becomes 02:00 +01:00
        List<Instant> ticks = ticks("30 2 * * *", OffsetDateTime.parse("2026-10-25T00:00+02:00").toInstant(), 2);
        assertEquals(List.of(
                OffsetDateTime.parse("2026-10-25T02:30+02:00").toInstant(),
                OffsetDateTime.parse("2026-10-26T02:30+01:00").toInstant()), ticks);
        List<Instant> halves = ticks("*/30 * * * *", OffsetDateTime.parse("2026-10-25T01:45+02:00").toInstant(), 3);
        assertEquals(List.of(
                OffsetDateTime.parse("2026-10-25T02:00+02:00").toInstant(),
                OffsetDateTime.parse("2026-10-25T02:30+02:00").toInstant(),
                OffsetDateTime.parse("2026-10-25T03:00+01:00").toInstant()), halves);
    }

    @Test
    void afterATimeInTheOverlapsSecondPassTheNextTimeIsLater() {
        Instant secondPass = OffsetDateTime.parse("2026-10-25T02:10+01:00").toInstant();
        assertEquals(OffsetDateTime.parse("2026-10-25T03:00+01:00").toInstant(),
                CronExpression.parse("*/30 * * * *").next(secondPass, BERLIN));
    }

    @Test
    void keepsItsTextAndComparesByIt() {
        assertEquals("0 9 * * MON", CronExpression.parse("  0 9 * * MON ").toString());
        assertEquals(CronExpression.parse("0 9 * * MON"), CronExpression.parse("0 9 * * MON"));
    }

    @ParameterizedTest(name = "''{0}'' fails: {1}")
    @CsvSource(delimiter = '|', value = {
            "''                  | must not be empty",
            "* * * *             | must have 5 fields (minute hour day-of-month month day-of-week) or 6 (second first), had 4",
            "* * * * * * *       | had 7",
            "61 * * * *          | in the minute field, value 61 is outside 0-59",
            "* 24 * * *          | in the hour field, value 24 is outside 0-23",
            "* * 0 * *           | in the day of month field, value 0 is outside 1-31",
            "* * * 13 *          | in the month field, value 13 is outside 1-12",
            "* * * * 8           | in the day of week field, value 8 is outside 0-7",
            "60 * * * * *        | in the second field, value 60 is outside 0-59",
            "5-1 * * * *         | in the minute field, range 5-1 runs backwards",
            "*/0 * * * *         | in the minute field, step 0 is outside 1-60",
            "x * * * *           | in the minute field, value 'x' is not a number",
            "* * * FOO *         | in the month field, value 'FOO' is not a number nor a name JAN..DEC",
            "1,,2 * * * *        | in the minute field, value '' is not a number",
            "? * * * *           | in the minute field, value '?' is not a number",
            "+5 * * * *          | in the minute field, value '+5' is not a number",
            "\u0665 * * * *          | in the minute field, value '\u0665' is not a number",
            "0 0 30 2 *          | must name a day of month that its months have",
            "0 0 31 4,6 *        | must name a day of month that its months have",
    })
    void badExpressionsFailNamingTheFieldAndTheRule(String cron, String rule) {
        InvalidValueException e = assertThrows(InvalidValueException.class, () -> CronExpression.parse(cron));
        assertEquals("cron", e.field());
        assertTrue(e.getMessage().contains(rule), e.getMessage());
    }

    @Test
    void nullFails() {
        assertEquals("cron", assertThrows(InvalidValueException.class, () -> CronExpression.parse(null)).field());
    }

    @Test
    void aThirtiethOfFebruaryOrAMondayIsAllowed() {
        assertEquals(Instant.parse("2026-02-02T00:00:00Z"),
                CronExpression.parse("0 0 30 2 MON").next(Instant.parse("2026-02-01T00:00:00Z"), ZoneOffset.UTC));
    }

    private static List<Instant> ticks(String cron, Instant after, int count) {
        CronExpression expression = CronExpression.parse(cron);
        List<Instant> ticks = new ArrayList<>();
        Instant t = after;
        for (int i = 0; i < count; i++) {
            t = expression.next(t, BERLIN);
            ticks.add(t);
        }
        return ticks;
    }
}
