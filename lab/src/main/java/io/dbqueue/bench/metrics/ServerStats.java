package io.dbqueue.bench.metrics;

import java.util.List;

/**
 * PostgreSQL's side of one measured window. {@code postgresCpuPercent} is of one core; it and the
 * CPU per message are null when the server's processes are not visible in this machine's /proc (a
 * remote server).
 */
public record ServerStats(long walBytes, double walBytesPerMessage, Double postgresCpuSeconds,
                          Double postgresCpuPercent, long tableBytes, long indexBytes, long deadTuples,
                          long autovacuumRuns, Double cpuMicrosPerMessage) {

    /** The shard set's figures: the sum of its servers', spread over the {@code processed} messages of all. */
    public static ServerStats combined(List<ServerStats> shards, long processed) {
        long wal = shards.stream().mapToLong(ServerStats::walBytes).sum();
        boolean cpuSeen = shards.stream().allMatch(s -> s.postgresCpuSeconds() != null);
        double cpu = cpuSeen ? shards.stream().mapToDouble(ServerStats::postgresCpuSeconds).sum() : 0;
        return new ServerStats(wal, PerMessage.of(wal, processed),
                cpuSeen ? Math.round(cpu * 100) / 100.0 : null,
                cpuSeen ? Math.round(10 * shards.stream().mapToDouble(ServerStats::postgresCpuPercent).sum()) / 10.0 : null,
                shards.stream().mapToLong(ServerStats::tableBytes).sum(),
                shards.stream().mapToLong(ServerStats::indexBytes).sum(),
                shards.stream().mapToLong(ServerStats::deadTuples).sum(),
                shards.stream().mapToLong(ServerStats::autovacuumRuns).sum(),
                cpuSeen ? PerMessage.cpuMicros(cpu, processed) : null);
    }
}
