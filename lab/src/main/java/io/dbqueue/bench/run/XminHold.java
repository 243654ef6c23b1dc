package io.dbqueue.bench.run;

import io.dbqueue.postgres.PostgresServer;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A transaction that holds the server's xmin horizon while open, as a forgotten session or a long report does:
 * it has a transaction id and a snapshot, so vacuum removes no row deleted after it began, and a scan cannot mark
 * their index entries dead either. Closing it rolls it back.
 */
final class XminHold implements AutoCloseable {

    private final Connection connection;

    private XminHold(Connection connection) {
        this.connection = connection;
    }

    static XminHold open(PostgresServer server) throws SQLException {
        Connection c = server.connect();
        try {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try (Statement st = c.createStatement()) {
                st.execute("SELECT txid_current()");
            }
            return new XminHold(c);
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    @Override
    public void close() throws SQLException {
        try (connection) {
            connection.rollback();
        }
    }
}
