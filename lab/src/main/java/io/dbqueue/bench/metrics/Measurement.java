package io.dbqueue.bench.metrics;

import java.util.List;

/**
 * What one measured window saw, before server and client figures are added: end-to-end latency, and
 * its write and read parts where the load's producers report acknowledgements ({@link Meter}), and the
 * library's claims where the load reports them (null elsewhere).
 */
public record Measurement(double seconds, long enqueued, long processed, LatencySummary latency,
                          LatencySummary writeLatency, LatencySummary readLatency, ClaimSummary claims,
                          List<SecondSample> series, List<LatencyBucket> buckets, boolean interrupted) {

    public double processedPerSecond() {
        return seconds <= 0 ? 0 : processed / seconds;
    }

    public double enqueuedPerSecond() {
        return seconds <= 0 ? 0 : enqueued / seconds;
    }
}
