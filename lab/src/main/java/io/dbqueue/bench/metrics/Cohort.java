package io.dbqueue.bench.metrics;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.concurrent.atomic.LongAdder;

/**
 * The messages stamped while a window was open, followed to their delivery even after it closed. A window's own
 * latency covers what was delivered during it, so a message still waiting when it closes is left out, and a system
 * falling behind looks faster than it is. The cohort keeps each such message: delivered later, with its latency;
 * never delivered, as slower than every delivered one.
 */
final class Cohort {

    private final long from;
    private volatile long until = Long.MAX_VALUE;
    private final int fanOut;
    private final LongAdder due = new LongAdder();
    private final LongAdder delivered = new LongAdder();
    private final Recorder latency = new Recorder(Meter.MAX_LATENCY_MICROS, 3);

    /** The messages stamped from {@code fromNanos} on, each delivered {@code fanOut} times. */
    Cohort(long fromNanos, int fanOut) {
        this.from = fromNanos;
        this.fanOut = fanOut;
    }

    /** Admits no message stamped from {@code untilNanos} on: the window has closed. */
    void close(long untilNanos) {
        until = untilNanos;
    }

    /** When the window closed; {@link Long#MAX_VALUE} while it is open. */
    long until() {
        return until;
    }

    private boolean holds(long stamp) {
        return stamp >= from && stamp < until;
    }

    void due(int count, long stamp) {
        if (holds(stamp)) {
            due.add(count);
        }
    }

    void delivered(long stamp, long micros) {
        if (holds(stamp)) {
            latency.recordValue(micros); // clamped by the Meter
            delivered.increment();
        }
    }

    /** Deliveries still owed: each message due in the window, once per reader, not yet delivered. */
    long unfinished() {
        return Math.max(0, due.sum() * fanOut - delivered.sum());
    }

    /** The cohort's latency now, {@code waitedMs} after it closed: a delivery still owed counts as at least that. */
    CohortLatency latency(double waitedMs) {
        Histogram histogram = latency.getIntervalHistogram(); // before the count, so none is both delivered and owed
        long owed = Math.max(0, due.sum() * fanOut - histogram.getTotalCount());
        return CohortLatency.of(histogram, owed, waitedMs);
    }
}
