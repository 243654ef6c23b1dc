package io.dbqueue;

import io.dbqueue.common.Transactions;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueProducer;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;

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
    private final QueueRoutes routes;
    private final Map<String, QueueProducer> producers;
    private final JoinedShards joined;

    ShardedProducer(QueueLocation location, ShardSet shards, QueueRoutes routes, Map<String, QueueProducer> producers,
                    Transactions transactions) {
        this.location = location;
        this.routes = routes;
        this.producers = Map.copyOf(producers);
        this.joined = new JoinedShards(shards, transactions);
    }

    public QueueLocation location() {
        return location;
    }

    /** The shard the next enqueue goes to. */
    public String shard() {
        return routes.shardOf(location);
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

    /** Writes on the queue's shard, counted in flight there until it ends, so that a move waits for it. */
    private <T> T write(Write<T> write) {
        String shard = routes.beginWrite(location);
        try {
            joined.check("enqueue into " + location, "the queue lives", List.of(shard));
            return ShardWrite.on(shard, "enqueue into " + location, () -> write.to(producers.get(shard)));
        } finally {
            routes.endWrite(location, shard);
        }
    }
}
