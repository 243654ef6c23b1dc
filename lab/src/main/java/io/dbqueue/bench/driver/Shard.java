package io.dbqueue.bench.driver;

import io.dbqueue.bench.metrics.ServerProbe;
import io.dbqueue.postgres.PostgresServer;

import javax.sql.DataSource;

/**
 * One server of a run's shard set ({@code --shards}): its name in the shard set, the server, a small pool for
 * preparing its table and probing it, and the probe of its WAL and CPU.
 */
public record Shard(String name, PostgresServer server, DataSource admin, ServerProbe probe) {
}
