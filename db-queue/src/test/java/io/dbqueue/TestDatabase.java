package io.dbqueue;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Schema;
import org.junit.jupiter.api.Assumptions;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/** The suite's PostgreSQL (embedded 18, or DBQ_JDBC_URL) and one pool on it, shared by all tests. */
public final class TestDatabase {

    /**
     * What the embedded test server sets beyond the durable stock settings: prepared transactions,
     * so that VacuumWatchTest can hold the horizon with a forgotten one. Only this suite's server has
     * it; the lab's benchmark servers stay stock, and an external server (DBQ_JDBC_URL) keeps its own.
     */
    public static final Map<String, String> SERVER_SETTINGS = Map.of("max_prepared_transactions", "10");

    private static HikariDataSource dataSource;
    private static long serverVersion;

    private TestDatabase() {
    }

    /** The shared server, started with {@link #SERVER_SETTINGS} when this is its first use. */
    public static PostgresServer server() {
        return PostgresServer.shared(SERVER_SETTINGS);
    }

    public static synchronized HikariDataSource dataSource() {
        if (dataSource == null) {
            dataSource = server().dataSource(40);
        }
        return dataSource;
    }

    /**
     * A fresh table of {@code layout}; the test is skipped, saying why, where the server is older than the layout
     * needs ({@link Layout#minimumServerVersion}).
     */
    public static QueueTable freshTable(Layout layout) throws SQLException {
        Assumptions.assumeTrue(supports(layout), () -> layout.name() + " needs server_version_num "
                + layout.minimumServerVersion() + " or later; this server has " + serverVersion());
        QueueTable table = QueueTable.of(layout);
        Schema.recreate(dataSource(), table);
        return table;
    }

    /** Whether the server is as new as {@code layout} needs. */
    public static boolean supports(Layout layout) {
        return serverVersion() >= layout.minimumServerVersion();
    }

    /** The server's {@code server_version_num}. */
    public static synchronized long serverVersion() {
        if (serverVersion == 0) {
            try {
                serverVersion = queryLong("SELECT current_setting('server_version_num')::int");
            } catch (SQLException e) {
                throw new IllegalStateException("could not read the test server's version", e);
            }
        }
        return serverVersion;
    }

    /** The first column of the first row of a result. */
    @FunctionalInterface
    private interface Column<T> {
        T of(ResultSet rs) throws SQLException;
    }

    public static long queryLong(String sql) throws SQLException {
        return query(sql, rs -> rs.getLong(1));
    }

    public static String queryString(String sql) throws SQLException {
        return query(sql, rs -> rs.getString(1));
    }

    public static double queryDouble(String sql) throws SQLException {
        return query(sql, rs -> rs.getDouble(1));
    }

    private static <T> T query(String sql, Column<T> column) throws SQLException {
        try (Connection c = dataSource().getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return column.of(rs);
        }
    }

    public static void execute(String sql) throws SQLException {
        try (Connection c = dataSource().getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
