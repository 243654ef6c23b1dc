package io.dbqueue.bench.metrics;

import javax.sql.DataSource;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** The benchmark JVM's own cost: CPU time over a window, threads, resident memory, and its connections to PostgreSQL. */
public final class ClientProbe {

    private static final String CONNECTIONS = "SELECT count(*) - 1 FROM pg_stat_activity"
            + " WHERE datname = current_database() AND backend_type = 'client backend'";

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** Process CPU nanoseconds so far, to pass back to {@link #since}. */
    public long cpuNanos() {
        return os.getProcessCpuTime();
    }

    /**
     * Client figures since {@code startCpuNanos} at {@code startNanos}, in which {@code processed}
     * messages were processed. Connections counts every client connection to the database but the
     * probe's own (with an external server, other clients of that database too).
     */
    public ClientStats since(long startCpuNanos, long startNanos, long processed, DataSource admin)
            throws SQLException {
        return ClientStats.of((cpuNanos() - startCpuNanos) / 1e9, (System.nanoTime() - startNanos) / 1e9, processed,
                ManagementFactory.getThreadMXBean().getThreadCount(), rssBytes(), connections(admin));
    }

    /** Client connections to the database, the one asking excluded. */
    public static int connections(DataSource admin) throws SQLException {
        try (Connection c = admin.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(CONNECTIONS)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static long rssBytes() {
        long rss = ProcStatus.rssBytes(ProcessHandle.current().pid());
        return rss < 0 ? Runtime.getRuntime().totalMemory() : rss;
    }
}
