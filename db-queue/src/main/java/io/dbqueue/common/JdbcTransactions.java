package io.dbqueue.common;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;

/** {@link Transactions#JDBC}: nothing to join, and a new transaction on a pooled connection. */
final class JdbcTransactions implements Transactions {

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
        action.run();
    }

    @Override
    public <T> T inNewTransaction(DataSource dataSource, Work<T> work) throws SQLException, InterruptedException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                T result = work.run(c);
                c.commit();
                return result;
            } catch (Throwable e) { // an Error too: the finally's auto-commit would commit the work half done
                try { // not Jdbc.rollbackQuietly: common sits below internal
                    c.rollback();
                } catch (SQLException rollback) {
                    e.addSuppressed(rollback);
                }
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }
}
