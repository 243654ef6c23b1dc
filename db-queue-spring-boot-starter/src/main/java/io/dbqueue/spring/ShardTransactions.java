package io.dbqueue.spring;

import io.dbqueue.ShardSet;
import io.dbqueue.common.Transactions;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * One shard's transactions: {@code delegate}'s, except that an enqueue from a thread whose transaction is on another
 * shard (and not on this one) fails before anything is written, as the core's {@code ShardedProducer} does: it could
 * not commit with that transaction, and committing on its own would break the caller's all-or-nothing.
 */
final class ShardTransactions implements Transactions {

    private final String shard;
    private final ShardSet shards;
    private final Transactions delegate;

    ShardTransactions(String shard, ShardSet shards, Transactions delegate) {
        this.shard = shard;
        this.shards = shards;
        this.delegate = delegate;
    }

    @Override
    public Connection joined(DataSource dataSource) throws SQLException {
        Connection joined = delegate.joined(dataSource);
        if (joined == null) {
            List<String> elsewhere = new ArrayList<>();
            for (String other : shards.names()) {
                DataSource otherSource = shards.dataSource(other);
                Connection there = other.equals(shard) ? null : delegate.joined(otherSource);
                if (there != null) {
                    delegate.release(there, otherSource);
                    elsewhere.add(other);
                }
            }
            if (!elsewhere.isEmpty()) {
                throw new IllegalStateException("enqueue into a queue on shard " + shard + ": the calling thread's"
                        + " transaction is on shard " + String.join(", ", elsewhere) + "; a transactional enqueue"
                        + " commits only with a transaction on its queue's own shard (place the queue there with"
                        + " dbq.queues.<id>.shard, or enqueue outside the transaction)");
            }
        }
        return joined;
    }

    @Override
    public void release(Connection connection, DataSource dataSource) {
        delegate.release(connection, dataSource);
    }

    @Override
    public void afterCommit(Runnable action) {
        delegate.afterCommit(action);
    }

    @Override
    public <T> T inNewTransaction(DataSource dataSource, Work<T> work) throws SQLException, InterruptedException {
        return delegate.inNewTransaction(dataSource, work);
    }
}
