package io.dbqueue.bench.metrics;

/**
 * What the server did during one minute of a measured window: checkpoints started, WAL written,
 * WAL flushes to disk and their mean time, autovacuum runs on the queue table, and its dead tuples,
 * table and index size when the minute ended. It tells whether a slow minute coincides with a
 * checkpoint, a vacuum falling behind, bloat, a WAL burst or slower storage: with durable commits
 * every commit waits for a WAL flush, so the flush time bounds the commit rate.
 *
 * @param walSyncMs mean time of one WAL flush (fsync) in milliseconds; null when the server does
 *                  not time WAL I/O ({@code track_wal_io_timing} off) or flushed nothing
 */
public record ServerMinute(int minute, long checkpoints, double walMegabytes, long walSyncs, Double walSyncMs,
                           long autovacuumRuns, long deadTuples, double tableMegabytes, double indexMegabytes) {
}
