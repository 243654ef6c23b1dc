package io.dbqueue.bench.metrics;

/** Latency of the messages processed until {@code upTo} messages had been processed: the experiment's latency chart. */
public record LatencyBucket(long upTo, double min, double avg, double max, double p95, double p99) {
}
