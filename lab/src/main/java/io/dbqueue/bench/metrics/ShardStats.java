package io.dbqueue.bench.metrics;

/**
 * One shard's side of a sharded cell's window: the messages its queue processed, its server's figures for
 * them, and its WAL flushes (pg_stat_io's fsyncs of object 'wal' on PostgreSQL 18, pg_stat_wal's wal_sync
 * before) with their mean time, null when the server does not time them (track_wal_io_timing off).
 */
public record ShardStats(String shard, long processed, ServerStats server, long walFlushes, Double walFlushMeanMs) {
}
