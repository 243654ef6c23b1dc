package io.dbqueue.spring;

import io.dbqueue.common.Transactions;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The library's transactions as Spring's. An enqueue without a connection joins the transaction the
 * calling thread is in on the queues' DataSource (a {@code @Transactional} method's, a
 * {@code TransactionTemplate}'s), through {@link DataSourceUtils}, never touching auto-commit; with
 * none, it commits on its own. An exactly-once batch runs in a new transaction of {@code manager}, so
 * that {@code JdbcTemplate}, JPA and {@code @Transactional} code in the handler commits or rolls back
 * with the claim.
 */
public final class SpringTransactions implements Transactions {

    private final TransactionTemplate newTransaction;

    /** {@code manager} must manage the queues' DataSource (a JDBC or JPA transaction manager on it). */
    SpringTransactions(PlatformTransactionManager manager) {
        this.newTransaction = new TransactionTemplate(manager);
        newTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    @Override
    public Connection joined(DataSource dataSource) throws SQLException {
        if (!TransactionSynchronizationManager.isActualTransactionActive()
                || !TransactionSynchronizationManager.hasResource(dataSource)) {
            return null;
        }
        Connection c = DataSourceUtils.getConnection(dataSource);
        if (c.getAutoCommit()) { // bound for synchronisation only (the transaction is another resource's)
            DataSourceUtils.releaseConnection(c, dataSource);
            return null;
        }
        return c;
    }

    @Override
    public void release(Connection connection, DataSource dataSource) {
        DataSourceUtils.releaseConnection(connection, dataSource);
    }

    @Override
    public void afterCommit(Runnable action) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            action.run();
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                action.run();
            }
        });
    }

    @Override
    public <T> T inNewTransaction(DataSource dataSource, Work<T> work) throws SQLException, InterruptedException {
        try {
            return newTransaction.execute(status -> {
                Connection c = DataSourceUtils.getConnection(dataSource);
                try {
                    if (c.getAutoCommit()) {
                        throw new IllegalStateException("the transaction manager does not manage the queues' DataSource:"
                                + " its connection is in auto-commit inside the transaction");
                    }
                    T result = work.run(c);
                    if (status.isRollbackOnly()) { // marked by the handler's own code: the commit would roll back
                        throw new IllegalStateException("the batch's transaction was marked rollback-only by the"
                                + " handler's transactional code; the batch's work is rolled back");
                    }
                    return result;
                } catch (SQLException | InterruptedException e) {
                    throw new CheckedFailure(e);
                } finally {
                    DataSourceUtils.releaseConnection(c, dataSource);
                }
            });
        } catch (CheckedFailure failure) {
            if (failure.getCause() instanceof InterruptedException interrupted) {
                throw interrupted;
            }
            throw (SQLException) failure.getCause();
        }
    }

    /** Carries a checked exception through the template, which rolls back on unchecked ones. */
    private static final class CheckedFailure extends RuntimeException {
        CheckedFailure(Exception cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }
}
