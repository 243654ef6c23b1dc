package io.dbqueue.bench.metrics;

/**
 * PostgreSQL's side of one measured window. {@code postgresCpuPercent} is of one core; it, the CPU
 * per message and the bytes the server's processes wrote to storage (WAL, data files, temporary
 * files) are null when the server's processes are not visible in this machine's /proc (a remote
 * server).
 */
public record ServerStats(long walBytes, double walBytesPerMessage, Double postgresCpuSeconds,
                          Double postgresCpuPercent, long tableBytes, long indexBytes, long deadTuples,
                          long autovacuumRuns, Double cpuMicrosPerMessage, Long writeBytes,
                          Double writeBytesPerMessage) {
}
