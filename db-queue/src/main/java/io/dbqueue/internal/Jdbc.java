package io.dbqueue.internal;

import io.dbqueue.common.CommitOutcomeUnknownException;
import io.dbqueue.common.QueueException;
import io.dbqueue.common.Transactions;
import javax.sql.DataSource;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.function.Supplier;

/** Plumbing shared by the queue and the log, not API. Small JDBC helpers: one transaction around some work, and arrays for batch parameters. */
public final class Jdbc {

    /** The SQLState of a statement PostgreSQL failed to break a deadlock. */
    static final String DEADLOCK_DETECTED = "40P01";
    /** Tries of a write that PostgreSQL keeps failing to break deadlocks. */
    static final int WRITE_ATTEMPTS = 3;

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
     * Runs a write on a pooled connection and commits it: in auto-commit, where the statement carries
     * its own commit, or, with {@code ownTransaction}, in a transaction it commits (rolled back when
     * {@code work} throws). A failure before the commit was sent throws {@link QueueException}: not
     * stored. The connection lost once it was sent throws {@link CommitOutcomeUnknownException}: the
     * server may have committed just before it went, so "not stored" would be a guess.
     *
     * <p>A write PostgreSQL failed to break a deadlock ({@value #DEADLOCK_DETECTED}) is done again from the start,
     * up to {@value #WRITE_ATTEMPTS} tries in all: the failed try rolled back whole, in its transaction or its one
     * statement, and its locks went with it. So {@code work} must hold nothing but its SQL between tries, and in
     * auto-commit must be one statement, or statements of which only the last stores anything.
     */
    public static <T> T written(DataSource dataSource, String what, boolean ownTransaction, Work<T> work) {
        for (int attempt = 1; ; attempt++) {
            try {
                return writtenOnce(dataSource, what, ownTransaction, work);
            } catch (QueueException e) {
                if (attempt >= WRITE_ATTEMPTS || !(e.getCause() instanceof SQLException s)
                        || !DEADLOCK_DETECTED.equals(s.getSQLState())) {
                    throw e;
                }
            }
        }
    }

    private static <T> T writtenOnce(DataSource dataSource, String what, boolean ownTransaction, Work<T> work) {
        Connection c;
        try {
            c = dataSource.getConnection();
        } catch (SQLException e) {
            throw new QueueException(what + " failed: " + e.getMessage(), e);
        }
        boolean commitSent = false;
        try {
            if (c.getAutoCommit() == ownTransaction) {
                c.setAutoCommit(!ownTransaction);
            }
            commitSent = !ownTransaction;
            T result;
            try {
                result = work.run(c);
            } catch (Throwable e) { // an Error too: auto-commit turned back on would commit the work half done
                if (ownTransaction) {
                    rollbackQuietly(c, e);
                }
                throw e;
            }
            if (ownTransaction) {
                commitSent = true;
                c.commit();
            }
            return result;
        } catch (SQLException e) {
            if (commitSent && connectionLost(e)) {
                throw new CommitOutcomeUnknownException(what + ": outcome unknown, the connection was lost while"
                        + " committing (" + e.getMessage() + "); send it again with the same idempotency key", e);
            }
            throw new QueueException(what + " failed: " + e.getMessage(), e);
        } finally {
            giveBack(c, ownTransaction);
        }
    }

    /**
     * Closes {@code c}, back to its pool, with auto-commit on again if it was turned off: a pool that does not reset
     * it (Tomcat's without defaultAutoCommit) lent the next borrower an implicit transaction nothing committed. A
     * failure here is the connection's, not the write's: its outcome was decided before.
     */
    private static void giveBack(Connection c, boolean autoCommitOff) {
        try {
            if (autoCommitOff) {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            // a broken connection: closing ends it
        }
        try {
            c.close();
        } catch (SQLException e) {
            // The pool has lost a connection; the write has its answer already.
        }
    }

    /**
     * Whether {@code e}, or an exception chained to it, says the session ended: a connection failure
     * (SQLState class 08, or a connection exception without a state: a pool's timeout waiting for a server that
     * does not answer, before any of its attempts failed, carries none) or the server terminating it (57P01
     * administrator command, 57P02 crash).
     */
    public static boolean connectionLost(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            for (SQLException s = t instanceof SQLException q ? q : null; s != null; s = s.getNextException()) {
                String state = s.getSQLState();
                if (s instanceof SQLTransientConnectionException || s instanceof SQLNonTransientConnectionException
                        || state != null && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02"))) {
                    return true;
                }
            }
        }
        return false;
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
            if (autoCommit) {
                autoCommitQuietly(c, e); // the caller may go on with the connection
            }
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

    /** Turns auto-commit back on after {@code cause}; a failure to is added to it, so that {@code cause} is what is thrown. */
    public static void autoCommitQuietly(Connection c, Throwable cause) {
        try {
            c.setAutoCommit(true);
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    /** Whether a table of that name is on the connection's search path. */
    public static boolean tableVisible(Connection c, String relation) throws SQLException {
        // A query on pg_class, not to_regclass(): that resolves names through the backend's catalog cache
        // without a lock, and can miss a table another session has just committed.
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_catalog.pg_class"
                + " WHERE relname = ? AND pg_catalog.pg_table_is_visible(oid)")) {
            ps.setString(1, relation);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
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
