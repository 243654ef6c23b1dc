package io.dbqueue.bench.metrics;

import org.HdrHistogram.Histogram;

/**
 * The latency of a window's cohort ({@link Cohort}): every delivery of the messages stamped while the window was
 * open, whenever it came, and those still owed when the lab stopped waiting, {@code waitedMs} after the window
 * closed, counted as slower than every delivered one. A percentile that falls among them is {@code waitedMs} or the
 * slowest delivered latency, whichever is longer: a lower bound, and {@link #bounded} says whether it is one.
 *
 * @param deliveries deliveries counted: delivered and owed, once per reader
 * @param unfinished deliveries still owed when the lab stopped waiting
 */
public record CohortLatency(long deliveries, long unfinished, double waitedMs, double p50, double p99) {

    static CohortLatency of(Histogram micros, long unfinished, double waitedMs) {
        long delivered = micros.getTotalCount();
        return new CohortLatency(delivered + unfinished, unfinished, waitedMs,
                percentile(micros, unfinished, 50, waitedMs), percentile(micros, unfinished, 99, waitedMs));
    }

    /** Whether {@code p99} is a measured figure, not the lower bound that owed deliveries put it at. */
    public boolean bounded() {
        return Math.ceil(0.99 * deliveries) <= deliveries - unfinished;
    }

    /** Whether anything was counted. */
    public boolean measured() {
        return deliveries > 0;
    }

    /**
     * The latency at {@code percent} with the owed deliveries ranked above every delivered one, in milliseconds;
     * at least {@code waitedMs} when the rank falls among them, 0 when there was nothing.
     */
    static double percentile(Histogram micros, long unfinished, double percent, double waitedMs) {
        long delivered = micros.getTotalCount();
        long rank = (long) Math.ceil(percent / 100 * (delivered + unfinished));
        if (rank == 0) {
            return 0;
        }
        if (rank > delivered) { // owed: slower than the wait, and than every delivered one
            return Math.max(waitedMs, Math.round(micros.getMaxValue()) / 1000.0);
        }
        return Math.round(micros.getValueAtPercentile(100.0 * rank / delivered)) / 1000.0;
    }
}
