package io.dbqueue;

import io.dbqueue.common.QueueException;
import io.dbqueue.common.Transactions;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The shards on which the calling thread is in a transaction that writes would join: a write to any other shard
 * commits on its own, whatever that transaction does, so it is refused before anything is written.
 */
final class JoinedShards {

    private final ShardSet shards;
    private final Transactions transactions;

    JoinedShards(ShardSet shards, Transactions transactions) {
        this.shards = shards;
        this.transactions = transactions;
    }

    /**
     * Fails when the calling thread is in a transaction on some shards and {@code written} holds another.
     *
     * @param what     the write, for the message: "enqueue into orders_tasks/mail"
     * @param owner    where the write goes, for the message: "the queue lives", "the messages' partitions are"
     */
    void check(String what, String owner, Collection<String> written) {
        if (transactions == Transactions.JDBC) {
            return; // plain JDBC joins no transaction
        }
        List<String> joined = new ArrayList<>();
        for (String name : shards.names()) {
            if (inTransactionOn(what, name)) {
                joined.add(name);
            }
        }
        Set<String> others = new TreeSet<>(written);
        others.removeAll(joined);
        if (!joined.isEmpty() && !others.isEmpty()) {
            throw new IllegalStateException(what + ": " + owner + " on shard " + String.join(", ", new TreeSet<>(written))
                    + " but the calling thread's transaction is on shard " + String.join(", ", joined)
                    + "; a transactional write commits only with a transaction on its own shard"
                    + " (place it there, or write outside the transaction)");
        }
    }

    private boolean inTransactionOn(String what, String shard) {
        var dataSource = shards.dataSource(shard);
        try {
            Connection joined = transactions.joined(dataSource);
            if (joined == null) {
                return false;
            }
            transactions.release(joined, dataSource);
            return true;
        } catch (SQLException e) {
            throw new QueueException(what + ": finding the transaction on shard " + shard + " failed", e);
        }
    }
}
