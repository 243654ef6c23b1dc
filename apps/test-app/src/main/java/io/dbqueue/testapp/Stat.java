package io.dbqueue.testapp;

import java.time.Instant;
import java.util.List;

/** Timings of one processed message as a consumer reports them, in microseconds since the epoch. */
public record Stat(long testId, long taskId, long enqueuedAtMicros, long claimedAtMicros, long completedAtMicros) {

    /** Up to the year 3000: so that the difference of two timings, a latency, cannot overflow. */
    static final long LATEST_MICROS = Instant.parse("3000-01-01T00:00:00Z").getEpochSecond() * 1_000_000;

    /** Refuses a report with a null element or a timing no clock gives, naming the first such statistic. */
    static void checkAll(List<Stat> stats) {
        for (int i = 0; i < stats.size(); i++) {
            Stat stat = stats.get(i);
            if (stat == null) {
                throw new IllegalArgumentException("[" + i + "]: null where a statistic belongs");
            }
            checkTime(i, "enqueuedAtMicros", stat.enqueuedAtMicros);
            checkTime(i, "claimedAtMicros", stat.claimedAtMicros);
            checkTime(i, "completedAtMicros", stat.completedAtMicros);
        }
    }

    private static void checkTime(int index, String field, long micros) {
        if (micros < 0 || micros >= LATEST_MICROS) {
            throw new IllegalArgumentException("[" + index + "]." + field + " must be microseconds since the epoch"
                    + " before the year 3000, was " + micros);
        }
    }
}
