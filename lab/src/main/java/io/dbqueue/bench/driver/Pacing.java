package io.dbqueue.bench.driver;

import java.util.concurrent.TimeUnit;

/**
 * When a producer's batches are due. A paced producer's batch is due at a fixed schedule and is
 * stamped with that due time, not with the time it was sent: a batch held up by a slow previous
 * send counts its wait in its latency (coordinated omission). An unpaced producer's batch is due
 * when it is sent.
 */
final class Pacing {

    private final long interval;
    private long next;

    private Pacing(long interval, long first) {
        this.interval = interval;
        this.next = first;
    }

    /**
     * Producer {@code index} of {@code producers} sending batches of {@code batchSize} at a total of
     * {@code rate} messages per second (0: as fast as possible), starting at {@code start}. The
     * producers' schedules are spread evenly over the interval, so that they do not send in step.
     */
    static Pacing of(int rate, int batchSize, int producers, int index, long start) {
        if (rate == 0) {
            return new Pacing(0, 0);
        }
        long interval = TimeUnit.SECONDS.toNanos(1) * batchSize * producers / rate;
        return new Pacing(interval, start + interval * index / producers);
    }

    /** The due time of the next batch, at or after which it is to be sent; {@code now} for an unpaced producer. */
    long nextDue(long now) {
        if (interval == 0) {
            return now;
        }
        long due = next;
        next += interval;
        return due;
    }
}
