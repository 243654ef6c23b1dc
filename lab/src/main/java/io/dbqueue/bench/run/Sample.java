package io.dbqueue.bench.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.dbqueue.bench.driver.Repetition;
import io.dbqueue.bench.metrics.BrokerStats;
import io.dbqueue.bench.metrics.ClaimSummary;
import io.dbqueue.bench.metrics.ClientStats;
import io.dbqueue.bench.metrics.CohortLatency;
import io.dbqueue.bench.metrics.LatencyBucket;
import io.dbqueue.bench.metrics.LatencySummary;
import io.dbqueue.bench.metrics.SecondSample;
import io.dbqueue.bench.metrics.ServerMinute;
import io.dbqueue.bench.metrics.ServerStats;
import io.dbqueue.bench.metrics.ShardStats;

import java.util.List;

/**
 * One repetition of a cell as written to results.json; {@code claims} where the driver reports the library's;
 * {@code cohortLatencyMs} where the load runs in the lab's JVM: the latency of the messages stamped in the window,
 * followed past its end ({@link CohortLatency}).
 */
public record Sample(int repetition, double seconds, long enqueued, long processed, double processedPerSecond,
                     double enqueuedPerSecond, boolean interrupted, LatencySummary latencyMs,
                     LatencySummary writeLatencyMs, LatencySummary readLatencyMs, ServerStats server,
                     ClientStats client, List<SecondSample> series, List<LatencyBucket> latencyBuckets,
                     List<ServerMinute> serverMinutes, BrokerStats broker,
                     @JsonInclude(JsonInclude.Include.NON_EMPTY) List<ShardStats> shards,
                     @JsonInclude(JsonInclude.Include.NON_NULL) ClaimSummary claims,
                     @JsonInclude(JsonInclude.Include.NON_NULL) CohortLatency cohortLatencyMs) {

    public Sample(int repetition, double seconds, long enqueued, long processed, double processedPerSecond,
                  double enqueuedPerSecond, boolean interrupted, LatencySummary latencyMs,
                  LatencySummary writeLatencyMs, LatencySummary readLatencyMs, ServerStats server,
                  ClientStats client, List<SecondSample> series, List<LatencyBucket> latencyBuckets,
                  List<ServerMinute> serverMinutes, BrokerStats broker) {
        this(repetition, seconds, enqueued, processed, processedPerSecond, enqueuedPerSecond, interrupted, latencyMs,
                writeLatencyMs, readLatencyMs, server, client, series, latencyBuckets, serverMinutes, broker, List.of(),
                null, null);
    }

    static Sample of(int repetition, Repetition r) {
        var m = r.measurement();
        return new Sample(repetition, m.seconds(), m.enqueued(), m.processed(), round(m.processedPerSecond()),
                round(m.enqueuedPerSecond()), m.interrupted(), m.latency(), m.writeLatency(), m.readLatency(),
                r.server(), r.client(), m.series(),
                m.buckets(), r.serverMinutes(), r.broker(), r.shards(), m.claims(), r.cohort());
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
