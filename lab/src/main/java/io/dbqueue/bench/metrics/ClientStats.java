package io.dbqueue.bench.metrics;

/** The benchmark client's side of one measured window: CPU in percent of one core, threads, RSS, connections. */
public record ClientStats(double cpuPercent, int threads, long rssBytes, int connections) {
}
