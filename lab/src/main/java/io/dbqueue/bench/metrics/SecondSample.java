package io.dbqueue.bench.metrics;

/**
 * One second of a measured window: messages enqueued and processed in it, its latency, and the lag at
 * its end (messages enqueued and not yet processed, counted once per group reading a topic).
 */
public record SecondSample(double second, long enqueued, long processed, double p50Ms, double p99Ms, double maxMs,
                           long lag) {
}
