package io.dbqueue.internal;

import io.dbqueue.common.QueueException;
import io.dbqueue.common.Transactions;
import javax.sql.DataSource;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.function.Supplier;

/** Plumbing shared by the queue and the log, not API. Small JDBC helpers: one transaction around some work, and arrays for batch parameters. */
public final class Jdbc {

    @FunctionalInterface
    public interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private Jdbc() {
    }

    /**
     * Runs a single statement's {@code work} on a pooled connection in autocommit mode: one statement
     * is atomic on its own, and an explicit transaction would cost a second round trip for the COMMIT.
     */
    public static <T> T autoCommitted(DataSource dataSource, String what, Work<T> work) {
        try (Connection c = dataSource.getConnection()) {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
            return work.run(c);
        } catch (SQLException e) {
            throw new QueueException(what + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code joined} on the connection of the transaction the calling thread is in, as
     * {@code transactions} finds it, without committing; or, when the thread is in none, {@code own}.
     */
    public static <T> T joinedOr(Transactions transactions, DataSource dataSource, String what, Work<T> joined,
                                 Supplier<T> own) {
        Connection c;
        try {
            c = transactions.joined(dataSource);
        } catch (SQLException e) {
            throw new QueueException(what + " failed: " + e.getMessage(), e);
        }
        if (c == null) {
            return own.get();
        }
        try {
            return joined.run(c);
        } catch (SQLException e) {
            throw new QueueException(what + " failed: " + e.getMessage(), e);
        } finally {
            transactions.release(c, dataSource);
        }
    }

    public static <T> T inTransaction(Connection c, Work<T> work) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        if (autoCommit) {
            c.setAutoCommit(false);
        }
        T result;
        try {
            result = work.run(c);
            c.commit();
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(c, e);
            throw e;
        }
        if (autoCommit) {
            c.setAutoCommit(true);
        }
        return result;
    }

    public static void rollbackQuietly(Connection c, Throwable cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    public static Array longs(Connection c, long[] values) throws SQLException {
        Long[] boxed = new Long[values.length];
        for (int i = 0; i < values.length; i++) {
            boxed[i] = values[i];
        }
        return c.createArrayOf("bigint", boxed);
    }

    public static Array ints(Connection c, int[] values) throws SQLException {
        Integer[] boxed = new Integer[values.length];
        for (int i = 0; i < values.length; i++) {
            boxed[i] = values[i];
        }
        return c.createArrayOf("int4", boxed);
    }

    public static Array texts(Connection c, String[] values) throws SQLException {
        return c.createArrayOf("text", values);
    }

    public static int update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            return ps.executeUpdate();
        }
    }
}
