package io.dbqueue.stack.fault;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** One-value queries of the scenarios. */
final class Sql {

    private Sql() {
    }

    /** Runs {@code sql} on {@code connection}, closes it, and returns the first column of the first row. */
    static long longOf(Connection connection, String sql) throws SQLException {
        return Long.parseLong(textOf(connection, sql));
    }

    static String textOf(Connection connection, String sql) throws SQLException {
        try (Connection c = connection; Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Sleeps until {@link System#nanoTime()} reaches {@code nanoTime}: the scenarios' schedule of phases and faults. */
    static void sleepUntil(long nanoTime) throws InterruptedException {
        long wait = nanoTime - System.nanoTime();
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
    }
}
