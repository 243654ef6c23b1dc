package io.dbqueue.bench.metrics;

/** One second of a measured window: messages enqueued and processed in it, and its latency. */
public record SecondSample(double second, long enqueued, long processed, double p50Ms, double p99Ms, double maxMs) {
}
