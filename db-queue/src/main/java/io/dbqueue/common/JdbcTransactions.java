package io.dbqueue.common;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Transactions#JDBC}: nothing to join, and a new transaction on a pooled connection. An action
 * for after the commit, asked for by work that {@link #inNewTransaction} runs on the same thread (an
 * enqueue on its connection: the consumers' wakeup, the listener), runs once that transaction has
 * committed, and not if it rolls back; outside one it runs at once.
 */
final class JdbcTransactions implements Transactions {

    /** The actions waiting for the commit of the transaction this thread is in; null outside one. */
    private static final ThreadLocal<List<Runnable>> AFTER_COMMIT = new ThreadLocal<>();

    @Override
    public Connection joined(DataSource dataSource) {
        return null;
    }

    @Override
    public void release(Connection connection, DataSource dataSource) {
        throw new IllegalStateException("plain JDBC joins no transaction, so it has no connection to give back");
    }

    @Override
    public void afterCommit(Runnable action) {
        List<Runnable> pending = AFTER_COMMIT.get();
        if (pending == null) {
            action.run();
        } else {
            pending.add(action);
        }
    }

    @Override
    public <T> T inNewTransaction(DataSource dataSource, Work<T> work) throws SQLException, InterruptedException {
        List<Runnable> outer = AFTER_COMMIT.get();
        List<Runnable> pending = new ArrayList<>();
        AFTER_COMMIT.set(pending);
        T result;
        try {
            result = committed(dataSource, work);
        } finally {
            AFTER_COMMIT.set(outer);
        }
        pending.forEach(Runnable::run);
        return result;
    }

    private static <T> T committed(DataSource dataSource, Work<T> work) throws SQLException, InterruptedException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            T result;
            try {
                result = work.run(c);
                c.commit();
            } catch (Throwable e) { // an Error too: auto-commit turned back on would commit the work half done
                try { // not Jdbc's quiet helpers: common sits below internal
                    c.rollback();
                } catch (SQLException rollback) {
                    e.addSuppressed(rollback);
                }
                try { // on a broken connection this fails too: the work's own failure is the one thrown
                    c.setAutoCommit(true);
                } catch (SQLException restore) {
                    e.addSuppressed(restore);
                }
                throw e;
            }
            c.setAutoCommit(true);
            return result;
        }
    }
}
