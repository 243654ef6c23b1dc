package io.dbqueue;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.postgres.PostgresServer;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** The suite's PostgreSQL (embedded 18, or DBQ_JDBC_URL) and one pool on it, shared by all tests. */
final class TestDatabase {

    private static HikariDataSource dataSource;

    private TestDatabase() {
    }

    static synchronized HikariDataSource dataSource() {
        if (dataSource == null) {
            dataSource = PostgresServer.shared().dataSource(40);
        }
        return dataSource;
    }

    static QueueTable freshTable(Layout layout) throws SQLException {
        QueueTable table = QueueTable.of(layout);
        Schema.recreate(dataSource(), table);
        return table;
    }

    static long queryLong(String sql) throws SQLException {
        try (Connection c = dataSource().getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static void execute(String sql) throws SQLException {
        try (Connection c = dataSource().getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
