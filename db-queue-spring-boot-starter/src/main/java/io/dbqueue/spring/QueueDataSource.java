package io.dbqueue.spring;

import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;

import javax.sql.DataSource;
import java.util.Objects;

/**
 * The DataSource the queues and topics live in (the {@link DbQueueDataSource} one, else the
 * application's only or primary one), as the library takes its connections from it: a
 * {@link TransactionAwareDataSourceProxy}'s target. Through the proxy, a connection taken on a thread
 * inside a transaction is that transaction's, and the library's auto-commit statements (a topic's
 * description, a dead-letter listing) would commit it early; the transaction's own connection is
 * still found through {@link SpringTransactions#joined}, which Spring binds to the target.
 */
public record QueueDataSource(DataSource dataSource) {

    public QueueDataSource {
        dataSource = unwrapped(Objects.requireNonNull(dataSource, "dataSource"));
    }

    static DataSource unwrapped(DataSource dataSource) {
        return dataSource instanceof TransactionAwareDataSourceProxy proxy ? proxy.getTargetDataSource() : dataSource;
    }
}
