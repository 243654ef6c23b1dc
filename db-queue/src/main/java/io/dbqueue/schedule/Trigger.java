package io.dbqueue.schedule;

import io.dbqueue.common.Checks;
import io.dbqueue.common.InvalidValueException;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;

/** When a schedule's ticks fall: a cron expression in a time zone, or a fixed interval. */
public sealed interface Trigger {

    /** The first tick strictly after {@code after}. */
    Instant next(Instant after);

    /** Ticks where {@code expression} matches, evaluated in {@code zone} (see {@link CronExpression}). */
    static Trigger cron(String expression, ZoneId zone) {
        return new Cron(CronExpression.parse(expression), zone);
    }

    /** Ticks every {@code interval}, at whole multiples of it since the epoch (1970-01-01T00:00Z). */
    static Trigger every(Duration interval) {
        return new Interval(interval);
    }

    /** Ticks where {@code expression} matches in {@code zone}. */
    record Cron(CronExpression expression, ZoneId zone) implements Trigger {

        public Cron {
            Objects.requireNonNull(expression, "expression");
            if (zone == null) {
                throw new InvalidValueException("zone", "must be a time zone, e.g. Europe/Paris or UTC", null);
            }
        }

        @Override
        public Instant next(Instant after) {
            return expression.next(after, zone);
        }

        @Override
        public String toString() {
            return "cron '" + expression + "' in " + zone;
        }
    }

    /**
     * Ticks at whole multiples of {@code interval} since the epoch, so that every process computes the
     * same ticks, whenever it started: every 15 minutes is at :00, :15, :30 and :45 (UTC offsets aside).
     */
    record Interval(Duration interval) implements Trigger {

        public Interval {
            Checks.positive("interval", interval);
            if (interval.toNanos() % 1_000_000 != 0) {
                throw new InvalidValueException("interval", "must be whole milliseconds", interval);
            }
        }

        @Override
        public Instant next(Instant after) {
            long millis = interval.toMillis();
            long at = after.toEpochMilli();
            return Instant.ofEpochMilli(Math.floorDiv(at, millis) * millis + millis);
        }

        @Override
        public String toString() {
            return "every " + interval;
        }
    }
}
