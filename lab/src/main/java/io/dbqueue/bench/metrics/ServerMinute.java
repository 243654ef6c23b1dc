package io.dbqueue.bench.metrics;

/**
 * What the server did during one minute of a measured window: checkpoints started, WAL written,
 * autovacuum runs on the queue table, and its dead tuples, table and index size when the minute
 * ended. It tells whether a slow minute coincides with a checkpoint, a vacuum falling behind, bloat
 * or a WAL burst.
 */
public record ServerMinute(int minute, long checkpoints, double walMegabytes, long autovacuumRuns, long deadTuples,
                           double tableMegabytes, double indexMegabytes) {
}
