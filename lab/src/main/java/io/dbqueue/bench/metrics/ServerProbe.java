package io.dbqueue.bench.metrics;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Reads PostgreSQL's statistics around a measured window: WAL written (pg_current_wal_lsn
 * difference), CPU of a local server, and after the window the table's size, dead tuples and
 * autovacuum runs, summed over its partitions.
 */
public final class ServerProbe {

    // pg_partition_tree lists nothing for a table that is not partitioned: the table itself is added
    private static final String TREE = "SELECT ?::regclass AS relid UNION SELECT relid FROM pg_partition_tree(?::regclass)";
    private static final String TABLE_STATS = "SELECT coalesce(sum(pg_table_size(t.relid)), 0),"
            + " coalesce(sum(pg_indexes_size(t.relid)), 0), coalesce(sum(s.n_dead_tup), 0),"
            + " coalesce(sum(s.autovacuum_count), 0)"
            + " FROM (" + TREE + ") t LEFT JOIN pg_stat_user_tables s ON s.relid = t.relid";

    private final DataSource admin;
    private final PostgresProcesses processes;

    public ServerProbe(DataSource admin) throws SQLException {
        this.admin = admin;
        try (Connection c = admin.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            this.processes = PostgresProcesses.ofBackend(rs.getLong(1));
        }
    }

    /** Whether PostgreSQL's CPU time can be read (the server runs on this machine). */
    public boolean seesServerCpu() {
        return processes != null;
    }

    /** Where the counters stand when a window opens. */
    public Mark mark(String table) throws SQLException {
        try (Connection c = admin.getConnection(); Statement st = c.createStatement()) {
            st.execute("SELECT pg_stat_clear_snapshot()");
            String lsn;
            try (ResultSet rs = st.executeQuery("SELECT pg_current_wal_lsn()::text")) {
                rs.next();
                lsn = rs.getString(1);
            }
            long autovacuums = tableStats(c, table)[3];
            return new Mark(lsn, autovacuums, processes == null ? 0 : processes.cpuSeconds(), System.nanoTime());
        }
    }

    /** The server's figures for the window opened at {@code mark}, in which {@code processed} messages were processed. */
    public ServerStats since(Mark mark, String table, long processed) throws SQLException {
        double seconds = (System.nanoTime() - mark.nanos) / 1e9;
        Double cpu = processes == null ? null : processes.cpuSeconds() - mark.cpuSeconds;
        try (Connection c = admin.getConnection()) {
            long wal;
            try (PreparedStatement ps = c.prepareStatement("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), ?::pg_lsn)")) {
                ps.setString(1, mark.lsn);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    wal = rs.getLong(1);
                }
            }
            try (Statement st = c.createStatement()) {
                st.execute("SELECT pg_stat_clear_snapshot()");
            }
            long[] stats = tableStats(c, table);
            return new ServerStats(wal, processed == 0 ? 0 : Math.round(10.0 * wal / processed) / 10.0,
                    cpu == null ? null : Math.round(cpu * 100) / 100.0,
                    cpu == null ? null : Math.round(1000 * cpu / seconds) / 10.0,
                    stats[0], stats[1], stats[2], stats[3] - mark.autovacuums);
        }
    }

    private static long[] tableStats(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(TABLE_STATS)) {
            ps.setString(1, table);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new long[]{rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)};
            }
        }
    }

    /** The counters at the start of a window. */
    public record Mark(String lsn, long autovacuums, double cpuSeconds, long nanos) {
    }
}
