package io.dbqueue.schedule;

import io.dbqueue.common.InvalidValueException;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.util.List;
import java.util.Locale;

/**
 * A cron expression: five fields (minute, hour, day of month, month, day of week) or six, with the
 * second first. A field is {@code *}, a value, a range {@code a-b}, either with a step
 * ({@code *}{@code /15}, {@code 10-40/10}, {@code 5/20}: from 5 to the end), or a list of those
 * ({@code 1,15,30-35}). Months may be named {@code JAN}..{@code DEC} and days of the week
 * {@code SUN}..{@code SAT} (0 and 7 are both Sunday); {@code ?} stands for {@code *} in the day fields.
 * When both day fields are restricted a day matches either (as in Vixie cron): {@code 0 9 1 * MON} runs
 * on the first of the month and on Mondays. A day field starting with {@code *} counts as unrestricted there, as in
 * Vixie cron: {@code 0 9 *}{@code /2 * MON} runs on Mondays with an odd date only.
 *
 * <p>{@link #next} evaluates it in a time zone. A local time that a daylight-saving gap skips runs when
 * the clock has jumped, shifted by the gap ({@code 30 2 * * *} runs at 03:30 on the day the clocks go
 * from 02:00 to 03:00); a local time that an overlap repeats runs once, at its first occurrence.
 * Immutable and thread-safe.
 */
public final class CronExpression {

    private static final List<String> MONTHS = List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG",
            "SEP", "OCT", "NOV", "DEC");
    private static final List<String> DAYS = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");
    /** Days of the month each month can have: a schedule on 30 February never runs and is refused. */
    private static final int[] MAX_DAYS = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

    private final String text;
    private final long seconds;
    private final long minutes;
    private final long hours;
    private final long daysOfMonth;
    private final long months;
    private final long daysOfWeek; // bit 0 Sunday .. bit 6 Saturday
    private final boolean eitherDay; // both day fields restricted: a day matches if either does

    private CronExpression(String text, long seconds, long minutes, long hours, long daysOfMonth, long months,
                           long daysOfWeek, boolean eitherDay) {
        this.text = text;
        this.seconds = seconds;
        this.minutes = minutes;
        this.hours = hours;
        this.daysOfMonth = daysOfMonth;
        this.months = months;
        this.daysOfWeek = daysOfWeek;
        this.eitherDay = eitherDay;
    }

    /** Parses {@code expression}; fails with an {@link InvalidValueException} of field {@code cron} saying what is wrong. */
    public static CronExpression parse(String expression) {
        if (expression == null || expression.isBlank()) {
            throw new InvalidValueException("cron", "must not be empty", expression);
        }
        String text = expression.trim();
        String[] fields = text.split("\\s+");
        if (fields.length != 5 && fields.length != 6) {
            throw new InvalidValueException("cron", "must have 5 fields (minute hour day-of-month month day-of-week)"
                    + " or 6 (second first), had " + fields.length, expression);
        }
        int f = fields.length - 5;
        long seconds = f == 1 ? new Field("second", 0, 59, List.of()).parse(fields[0], expression) : 1L;
        long minutes = new Field("minute", 0, 59, List.of()).parse(fields[f], expression);
        long hours = new Field("hour", 0, 23, List.of()).parse(fields[f + 1], expression);
        long daysOfMonth = new Field("day of month", 1, 31, List.of()).parse(fields[f + 2], expression);
        long months = new Field("month", 1, 12, MONTHS).parse(fields[f + 3], expression);
        long daysOfWeek = new Field("day of week", 0, 7, DAYS).parse(fields[f + 4], expression);
        if ((daysOfWeek & (1L << 7)) != 0) {
            daysOfWeek = (daysOfWeek | 1L) & ~(1L << 7); // 7 is Sunday too
        }
        boolean eitherDay = !isAny(fields[f + 2]) && !isAny(fields[f + 4]);
        if (!eitherDay) {
            checkSomeMonthHasTheDay(daysOfMonth, months, expression);
        }
        return new CronExpression(text, seconds, minutes, hours, daysOfMonth, months, daysOfWeek, eitherDay);
    }

    /**
     * The first time strictly after {@code after} that matches, in {@code zone}. An overlap resolves to its earlier
     * offset; a gap shifts a time in it later by the gap's length, past real times after the gap that may match too
     * (a gap of half an hour: 02:20 runs at 02:50, after a real 02:35). So local times are walked in order, and the
     * earliest instant after {@code after} is kept until a local time reaches that instant's own.
     */
    public Instant next(Instant after, ZoneId zone) {
        LocalDateTime local = LocalDateTime.ofInstant(after, zone);
        ZoneOffsetTransition gap = zone.getRules().previousTransition(after.plusNanos(1));
        if (gap != null && gap.isGap() && after.isBefore(gap.getInstant().plus(gap.getDuration()))) {
            local = gap.getDateTimeBefore().minusSeconds(1); // the gap's times, shifted, may still be to come
        }
        Instant best = null;
        while (true) {
            local = nextLocal(local);
            if (best != null && !local.isBefore(LocalDateTime.ofInstant(best, zone))) {
                return best; // this local time, and every later one, is no earlier an instant than best
            }
            Instant candidate = ZonedDateTime.ofLocal(local, zone, null).toInstant();
            if (candidate.isAfter(after) && (best == null || candidate.isBefore(best))) {
                best = candidate;
            }
        }
    }

    /** The first local time strictly after {@code after} that every field matches. */
    LocalDateTime nextLocal(LocalDateTime after) {
        LocalDateTime t = after.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        // The Gregorian calendar repeats every 400 years (146,097 days, a whole number of weeks), so whatever matches
        // at all matches within them: 29 February on a Sunday comes every 28 years, and 40 apart across 2100.
        int lastYear = t.getYear() + 400;
        while (t.getYear() <= lastYear) {
            if (!has(months, t.getMonthValue())) {
                t = t.toLocalDate().withDayOfMonth(1).plusMonths(1).atStartOfDay();
            } else if (!dayMatches(t.toLocalDate())) {
                t = t.toLocalDate().plusDays(1).atStartOfDay();
            } else if (!has(hours, t.getHour())) {
                t = t.truncatedTo(ChronoUnit.HOURS).plusHours(1);
            } else if (!has(minutes, t.getMinute())) {
                t = t.truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
            } else if (!has(seconds, t.getSecond())) {
                t = t.plusSeconds(1);
            } else {
                return t;
            }
        }
        throw new IllegalStateException("cron '" + text + "' matches no time within 400 years of " + after);
    }

    private boolean dayMatches(LocalDate date) {
        boolean dom = has(daysOfMonth, date.getDayOfMonth());
        boolean dow = has(daysOfWeek, date.getDayOfWeek().getValue() % 7);
        return eitherDay ? dom || dow : dom && dow;
    }

    private static boolean has(long bits, int value) {
        return (bits & (1L << value)) != 0;
    }

    /** Whether a day field leaves the day unrestricted for the either-day rule: as Vixie cron, any field starting with {@code *}. */
    private static boolean isAny(String field) {
        return field.startsWith("*") || field.equals("?");
    }

    private static void checkSomeMonthHasTheDay(long daysOfMonth, long months, String expression) {
        for (int m = 1; m <= 12; m++) {
            if (has(months, m) && Long.numberOfTrailingZeros(daysOfMonth) <= MAX_DAYS[m - 1]) {
                return;
            }
        }
        throw new InvalidValueException("cron", "must name a day of month that its months have", expression);
    }

    /** The expression as given, trimmed. */
    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CronExpression other && text.equals(other.text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    /** One field's name, range and value names, and its parser into a bit set of the values it matches. */
    private record Field(String name, int min, int max, List<String> names) {

        long parse(String field, String expression) {
            long bits = 0;
            for (String item : field.split(",", -1)) {
                bits |= item(item, expression);
            }
            return bits;
        }

        private long item(String item, String expression) {
            String range = item;
            int step = 1;
            int slash = item.indexOf('/');
            if (slash >= 0) {
                range = item.substring(0, slash);
                step = number(item.substring(slash + 1), "step", 1, max - min + 1, expression);
            }
            int from;
            int to;
            if (range.equals("*") || (range.equals("?") && name.startsWith("day"))) {
                from = min;
                to = max == 7 ? 6 : max; // a day of week step counts 0..6
            } else {
                int dash = range.indexOf('-', 1);
                from = value(dash < 0 ? range : range.substring(0, dash), expression);
                to = dash >= 0 ? value(range.substring(dash + 1), expression) : slash >= 0 ? max : from;
                if (from > to) {
                    throw invalid("range " + range + " runs backwards", expression);
                }
            }
            long bits = 0;
            for (int v = from; v <= to; v += step) {
                bits |= 1L << v;
            }
            return bits;
        }

        private int value(String text, String expression) {
            int named = names.indexOf(text.toUpperCase(Locale.ROOT));
            if (named >= 0) {
                return named + (min == 1 ? 1 : 0);
            }
            return number(text, "value", min, max, expression);
        }

        private int number(String text, String what, int low, int high, String expression) {
            int n;
            try {
                if (!text.chars().allMatch(ch -> ch >= '0' && ch <= '9')) { // parseInt takes a sign and any script's digits
                    throw new NumberFormatException(text);
                }
                n = Integer.parseInt(text);
            } catch (NumberFormatException e) {
                throw invalid(what + " '" + text + "' is not a number" + (names.isEmpty() ? "" : " nor a name "
                        + names.get(0) + ".." + names.get(names.size() - 1)), expression);
            }
            if (n < low || n > high) {
                throw invalid(what + " " + n + " is outside " + low + "-" + high, expression);
            }
            return n;
        }

        private InvalidValueException invalid(String problem, String expression) {
            return new InvalidValueException("cron", "must be a valid cron expression: in the " + name + " field, "
                    + problem, expression);
        }
    }
}
