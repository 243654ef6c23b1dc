package io.dbqueue.common;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The transactions the library's own work joins or runs in. {@link #JDBC}, the default, is plain
 * JDBC: a producer commits on a pooled connection of its own, and an exactly-once batch runs in a
 * transaction the library begins and commits. A framework brings its own: the Spring Boot starter
 * joins producers to the Spring transaction the calling thread is in, and runs exactly-once batches
 * in transactions of the application's transaction manager, so that a handler's JDBC, JPA and
 * {@code @Transactional} code commits or rolls back with the claim.
 */
public interface Transactions {

    /** Plain JDBC: no transaction to join; a new one is a pooled connection out of auto-commit. */
    Transactions JDBC = new JdbcTransactions();

    /** Work on a transaction's connection. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException, InterruptedException;
    }

    /**
     * The connection of the transaction the calling thread is in, or null if it is in none. Work on
     * it must neither commit, nor roll back, nor change auto-commit; give it back with {@link #release}.
     */
    Connection joined(DataSource dataSource) throws SQLException;

    /** Gives back a connection {@link #joined} returned; the transaction goes on. */
    void release(Connection connection, DataSource dataSource);

    /**
     * Runs {@code action} once the transaction the calling thread is in has committed, and not if it
     * rolls back; at once when the thread is in none. A joined enqueue reports itself (a wakeup,
     * metrics) this way, so that nobody hears of a task before it exists.
     */
    void afterCommit(Runnable action);

    /**
     * Runs {@code work} in a new transaction on a connection of {@code dataSource}: committed when it
     * returns, rolled back when it throws (and the exception passed on).
     */
    <T> T inNewTransaction(DataSource dataSource, Work<T> work) throws SQLException, InterruptedException;
}
