package io.dbqueue.bench.metrics;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Reads PostgreSQL's statistics around a measured window: WAL written (pg_current_wal_lsn
 * difference), CPU of a local server, and after the window the table's size, dead tuples and
 * autovacuum runs, summed over its partitions. {@link #counters} are read every minute of a long
 * window, and {@link Counters#minuteSince} turns two readings into a {@link ServerMinute}.
 */
public final class ServerProbe {

    // pg_partition_tree lists nothing for a table that is not partitioned: the tables themselves are added
    private static final String TREE = "SELECT t AS relid FROM unnest(?::regclass[]) t"
            + " UNION SELECT p.relid FROM unnest(?::regclass[]) t, pg_partition_tree(t) p";
    private static final String TABLE_STATS = "SELECT coalesce(sum(pg_table_size(t.relid)), 0),"
            + " coalesce(sum(pg_indexes_size(t.relid)), 0), coalesce(sum(s.n_dead_tup), 0),"
            + " coalesce(sum(s.autovacuum_count), 0)"
            + " FROM (" + TREE + ") t LEFT JOIN pg_stat_user_tables s ON s.relid = t.relid";

    // pg_stat_checkpointer replaced pg_stat_bgwriter's checkpoint counters in PostgreSQL 17
    private static final String CHECKPOINTS_SINCE_17 = "SELECT num_timed + num_requested FROM pg_stat_checkpointer";
    private static final String CHECKPOINTS_BEFORE_17 = "SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter";

    // PostgreSQL 18 moved WAL flush counts and times from pg_stat_wal to pg_stat_io; times need track_wal_io_timing
    private static final String WAL_SYNCS_SINCE_18 = "SELECT coalesce(sum(fsyncs), 0), coalesce(sum(fsync_time), 0)"
            + " FROM pg_stat_io WHERE object = 'wal'";
    private static final String WAL_SYNCS_BEFORE_18 = "SELECT wal_sync, wal_sync_time FROM pg_stat_wal";

    private final DataSource admin;
    private final PostgresProcesses processes;
    private final String checkpointsQuery;
    private final String walSyncsQuery;
    private final boolean walSyncsTimed;

    public ServerProbe(DataSource admin) throws SQLException {
        this.admin = admin;
        try (Connection c = admin.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT pg_backend_pid(), current_setting('server_version_num')::int,"
                     + " current_setting('track_wal_io_timing', true) = 'on'")) {
            rs.next();
            this.processes = PostgresProcesses.ofBackend(rs.getLong(1));
            int version = rs.getInt(2);
            this.checkpointsQuery = version >= 170000 ? CHECKPOINTS_SINCE_17 : CHECKPOINTS_BEFORE_17;
            this.walSyncsQuery = version >= 180000 ? WAL_SYNCS_SINCE_18 : WAL_SYNCS_BEFORE_18;
            this.walSyncsTimed = rs.getBoolean(3);
        }
    }

    /** Where the counters stand when a window opens. */
    public Mark mark(List<String> tables) throws SQLException {
        return new Mark(counters(tables), processes == null ? 0 : processes.cpuSeconds(), System.nanoTime());
    }

    /** The server's figures for the window opened at {@code mark}, in which {@code processed} messages were processed. */
    public ServerStats since(Mark mark, List<String> tables, long processed) throws SQLException {
        return since(mark, counters(tables), processed);
    }

    /** As {@link #since}, for one shard of a sharded cell, with its WAL flushes. */
    public ShardStats shardSince(String shard, Mark mark, List<String> tables, long processed) throws SQLException {
        Counters now = counters(tables);
        long flushes = now.walSyncs - mark.counters.walSyncs;
        double millis = now.walSyncMillis - mark.counters.walSyncMillis;
        Double mean = flushes == 0 || Double.isNaN(millis) ? null : Math.round(1000 * millis / flushes) / 1000.0;
        return new ShardStats(shard, processed, since(mark, now, processed), flushes, mean);
    }

    private ServerStats since(Mark mark, Counters now, long processed) {
        double seconds = (System.nanoTime() - mark.nanos) / 1e9;
        Double cpu = processes == null ? null : processes.cpuSeconds() - mark.cpuSeconds;
        long wal = now.walBytes - mark.counters.walBytes;
        return new ServerStats(wal, PerMessage.of(wal, processed),
                cpu == null ? null : Math.round(cpu * 100) / 100.0,
                cpu == null ? null : PerMessage.cpuPercent(cpu, seconds),
                now.tableBytes, now.indexBytes, now.deadTuples, now.autovacuums - mark.counters.autovacuums,
                cpu == null ? null : PerMessage.cpuMicros(cpu, processed));
    }

    /** The cumulative counters a {@link ServerMinute} is the difference of. */
    public Counters counters(List<String> tables) throws SQLException {
        try (Connection c = admin.getConnection(); Statement st = c.createStatement()) {
            st.execute("SELECT pg_stat_clear_snapshot()");
            long checkpoints;
            try (ResultSet rs = st.executeQuery(checkpointsQuery)) {
                rs.next();
                checkpoints = rs.getLong(1);
            }
            long wal;
            try (ResultSet rs = st.executeQuery("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')")) {
                rs.next();
                wal = rs.getLong(1);
            }
            long walSyncs;
            double walSyncMillis;
            try (ResultSet rs = st.executeQuery(walSyncsQuery)) {
                rs.next();
                walSyncs = rs.getLong(1);
                walSyncMillis = walSyncsTimed ? rs.getDouble(2) : Double.NaN;
            }
            long[] stats = tableStats(c, tables);
            return new Counters(checkpoints, wal, walSyncs, walSyncMillis, stats[3], stats[2], stats[0], stats[1]);
        }
    }

    private static long[] tableStats(Connection c, List<String> tables) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(TABLE_STATS)) {
            ps.setArray(1, c.createArrayOf("text", tables.toArray()));
            ps.setArray(2, c.createArrayOf("text", tables.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new long[]{rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)};
            }
        }
    }

    /**
     * Checkpoints started, WAL position in bytes, WAL flushes and their total milliseconds (NaN when
     * not timed), and the table's autovacuum runs, dead tuples and size.
     */
    public record Counters(long checkpoints, long walBytes, long walSyncs, double walSyncMillis, long autovacuums,
                           long deadTuples, long tableBytes, long indexBytes) {

        public ServerMinute minuteSince(Counters start, int minute) {
            long syncs = walSyncs - start.walSyncs;
            double millis = walSyncMillis - start.walSyncMillis;
            Double meanSync = syncs == 0 || Double.isNaN(millis) ? null : Math.round(1000 * millis / syncs) / 1000.0;
            return new ServerMinute(minute, checkpoints - start.checkpoints, megabytes(walBytes - start.walBytes),
                    syncs, meanSync, autovacuums - start.autovacuums, deadTuples, megabytes(tableBytes),
                    megabytes(indexBytes));
        }

        private static double megabytes(long bytes) {
            return Math.round(bytes / 104857.6) / 10.0;
        }
    }

    /** The counters at the start of a window. */
    public record Mark(Counters counters, double cpuSeconds, long nanos) {
    }
}
