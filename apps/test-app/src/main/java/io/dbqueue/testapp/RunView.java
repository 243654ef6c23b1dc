package io.dbqueue.testapp;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.time.Instant;
import java.util.List;

/**
 * A run as {@code GET /} and {@code GET /{id}} show it. The start is the first message's enqueue
 * time, the end the last message's completion; {@code rps} is messages per second between them.
 * The two series are only in {@code GET /{id}}.
 */
public record RunView(long id, RunStatus status, long messageCount, long sentCount, long processedCount,
                      Instant start, Instant end, Double durationSeconds, Double rps, Latency latencyMs,
                      String failure,
                      @JsonInclude(JsonInclude.Include.NON_NULL) List<SecondCount> throughput,
                      @JsonInclude(JsonInclude.Include.NON_NULL) List<LatencyBucket> latencyBuckets) {

    /** Enqueue-to-completion latency of the run's messages, in milliseconds. */
    public record Latency(double min, double avg, double p50, double p95, double p99, double max) {
    }

    /** Messages completed in second {@code second} of the run (0 = the second the first was enqueued). */
    public record SecondCount(long second, long count) {
    }

    /** Latency of the messages completed after {@code upTo - bucket size} and up to {@code upTo}, in completion order. */
    public record LatencyBucket(long upTo, double min, double avg, double max, double p95, double p99) {
    }

    RunView withProgress(long sent, long processed) {
        return new RunView(id, status, messageCount, sent, processed, start, end, durationSeconds, rps, latencyMs,
                failure, throughput, latencyBuckets);
    }

    RunView withSeries(List<SecondCount> seconds, List<LatencyBucket> buckets) {
        return new RunView(id, status, messageCount, sentCount, processedCount, start, end, durationSeconds, rps,
                latencyMs, failure, seconds, buckets);
    }
}
