package io.dbqueue;

import io.dbqueue.common.QueueException;
import io.dbqueue.common.Transactions;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueProducer;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A producer of one queue of a {@link ShardedDbQueue}: each enqueue goes to the shard the queue is
 * placed on at that moment (a {@link QueueProducer} per shard behind it), so that a queue move's
 * first step takes effect at the next enqueue. A write to a shard that cannot be reached throws
 * {@link ShardUnavailableException} naming it. An enqueue that would join the calling thread's
 * transaction must find that transaction on the queue's shard: one on another shard fails at once,
 * before anything is written, saying which shards. Thread-safe.
 *
 * <p>The forms that take a {@link Connection} are on the shard's own producer:
 * {@code door.shard(door.shardOf(queue)).producer(queue)}.
 */
public final class ShardedProducer {

    @FunctionalInterface
    private interface Write<T> {
        T to(QueueProducer producer);
    }

    private final QueueLocation location;
    private final ShardSet shards;
    private final Function<QueueLocation, String> placement;
    private final Map<String, QueueProducer> producers;
    private final Transactions transactions;

    ShardedProducer(QueueLocation location, ShardSet shards, Function<QueueLocation, String> placement,
                    Map<String, QueueProducer> producers, Transactions transactions) {
        this.location = location;
        this.shards = shards;
        this.placement = placement;
        this.producers = Map.copyOf(producers);
        this.transactions = transactions;
    }

    public QueueLocation location() {
        return location;
    }

    /** The shard the next enqueue goes to. */
    public String shard() {
        return placement.apply(location);
    }

    public long enqueue(String payload) {
        return write(p -> p.enqueue(payload));
    }

    public long enqueue(String payload, Duration delay) {
        return write(p -> p.enqueue(payload, delay));
    }

    public List<Long> enqueueAll(List<String> payloads) {
        return write(p -> p.enqueueAll(payloads));
    }

    public List<Long> enqueueAll(List<String> payloads, Duration delay) {
        return write(p -> p.enqueueAll(payloads, delay));
    }

    public QueueProducer.Enqueued enqueueOnce(String key, String payload) {
        return write(p -> p.enqueueOnce(key, payload));
    }

    public QueueProducer.Enqueued enqueueOnce(String key, String fingerprint, String payload) {
        return write(p -> p.enqueueOnce(key, fingerprint, payload));
    }

    public List<QueueProducer.Enqueued> enqueueAllOnce(List<String> keys, List<String> payloads, Duration delay) {
        return write(p -> p.enqueueAllOnce(keys, payloads, delay));
    }

    public List<QueueProducer.Enqueued> enqueueAllOnce(List<String> keys, List<String> fingerprints,
                                                       List<String> payloads, Duration delay) {
        return write(p -> p.enqueueAllOnce(keys, fingerprints, payloads, delay));
    }

    private <T> T write(Write<T> write) {
        String shard = shard();
        checkTransaction(shard);
        return ShardWrite.on(shard, "enqueue into " + location, () -> write.to(producers.get(shard)));
    }

    /** Fails when the calling thread is in a transaction on other shards but not on {@code shard}. */
    private void checkTransaction(String shard) {
        if (transactions == Transactions.JDBC) {
            return; // plain JDBC joins no transaction
        }
        List<String> joined = new ArrayList<>();
        for (String name : shards.names()) {
            if (inTransactionOn(name)) {
                joined.add(name);
            }
        }
        if (!joined.isEmpty() && !joined.contains(shard)) {
            throw new IllegalStateException("enqueue into " + location + ": the queue lives on shard " + shard
                    + " but the calling thread's transaction is on shard " + String.join(", ", joined)
                    + "; a transactional enqueue commits only with a transaction on the queue's own shard"
                    + " (place the queue there, or enqueue outside the transaction)");
        }
    }

    private boolean inTransactionOn(String shard) {
        var dataSource = shards.dataSource(shard);
        try {
            Connection joined = transactions.joined(dataSource);
            if (joined == null) {
                return false;
            }
            transactions.release(joined, dataSource);
            return true;
        } catch (SQLException e) {
            throw new QueueException("enqueue into " + location + ": finding the transaction on shard " + shard
                    + " failed", e);
        }
    }
}
