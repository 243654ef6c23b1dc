package io.dbqueue.bench.metrics;

/**
 * The benchmark client's side of one measured window: CPU in seconds, in percent of one core and
 * in microseconds per message processed, threads, RSS, connections.
 */
public record ClientStats(double cpuPercent, int threads, long rssBytes, int connections, double cpuSeconds,
                          double cpuMicrosPerMessage) {

    /** The figures for {@code cpuSeconds} of CPU over {@code seconds} in which {@code processed} messages were processed. */
    public static ClientStats of(double cpuSeconds, double seconds, long processed, int threads, long rssBytes,
                                 int connections) {
        return new ClientStats(PerMessage.cpuPercent(cpuSeconds, seconds), threads, rssBytes, connections,
                Math.round(cpuSeconds * 100) / 100.0, PerMessage.cpuMicros(cpuSeconds, processed));
    }
}
