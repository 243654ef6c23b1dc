package io.dbqueue.bench.driver;

import io.dbqueue.bench.metrics.BrokerStats;
import io.dbqueue.bench.metrics.ClientStats;
import io.dbqueue.bench.metrics.CohortLatency;
import io.dbqueue.bench.metrics.Measurement;
import io.dbqueue.bench.metrics.ServerMinute;
import io.dbqueue.bench.metrics.ServerStats;
import io.dbqueue.bench.metrics.ShardStats;

import java.util.List;

/**
 * One repetition of a cell: the measured window and the server's and client's figures for it (null
 * when unavailable), the server's activity per full minute (empty when not read), and a broker's
 * process figures (null but for a broker's cell with its process on this machine), and a sharded cell's
 * figures per shard ({@code server} is then their sum; empty for every other cell), and the latency of the messages
 * stamped in the window followed to their delivery (null where the load is not in this JVM).
 */
public record Repetition(Measurement measurement, ServerStats server, ClientStats client,
                         List<ServerMinute> serverMinutes, BrokerStats broker, List<ShardStats> shards,
                         CohortLatency cohort) {

    public Repetition(Measurement measurement, ServerStats server, ClientStats client,
                      List<ServerMinute> serverMinutes, BrokerStats broker, List<ShardStats> shards) {
        this(measurement, server, client, serverMinutes, broker, shards, null);
    }

    public Repetition(Measurement measurement, ServerStats server, ClientStats client,
                      List<ServerMinute> serverMinutes, BrokerStats broker) {
        this(measurement, server, client, serverMinutes, broker, List.of());
    }

    public Repetition(Measurement measurement, ServerStats server, ClientStats client,
                      List<ServerMinute> serverMinutes) {
        this(measurement, server, client, serverMinutes, null);
    }
}
