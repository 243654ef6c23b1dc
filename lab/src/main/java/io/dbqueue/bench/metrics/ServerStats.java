package io.dbqueue.bench.metrics;

/**
 * PostgreSQL's side of one measured window. {@code postgresCpuPercent} is of one core; it and the
 * CPU per message are null when the server's processes are not visible in this machine's /proc (a
 * remote server).
 */
public record ServerStats(long walBytes, double walBytesPerMessage, Double postgresCpuSeconds,
                          Double postgresCpuPercent, long tableBytes, long indexBytes, long deadTuples,
                          long autovacuumRuns, Double cpuMicrosPerMessage) {
}
