package io.dbqueue.spring;

import io.dbqueue.DbQueue;
import io.dbqueue.common.Cached;
import io.dbqueue.queue.CoalescingProducer;
import io.dbqueue.queue.DeadLetters;
import io.dbqueue.queue.QueueAdmin;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueMonitor;
import io.dbqueue.queue.QueueMonitor.Depth;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueWorkers;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The application's queues by id ({@code dbq.queues.<id>}): producers to enqueue with, dead letters, depths and the
 * running workers, from the {@link DbQueue} that holds each (its shard's with {@code dbq.shards}). An unknown id throws {@link UnknownQueueIdException} naming it.
 */
public class DbQueues {

    private final QueueDoors doors;
    private final DbQueueProperties properties;
    private final QueueConsumerWorkers consumers;
    private final Map<String, QueueProducer> producers = new LinkedHashMap<>();
    private final Map<String, CoalescingProducer> coalescingProducers = new ConcurrentHashMap<>();
    private final Map<String, Cached<Depth>> depths = new LinkedHashMap<>();
    private final Map<String, Cached<Long>> deadLetterCounts = new LinkedHashMap<>();

    /** Makes every queue's producer, so that the door purges the idempotency keys of every configured table. */
    public DbQueues(DbQueue door, DbQueueProperties properties, QueueConsumerWorkers consumers) {
        this(queue -> door, properties, consumers);
    }

    /** As the other constructor, each queue in the door {@code doors} gives for it (its shard's). */
    public DbQueues(QueueDoors doors, DbQueueProperties properties, QueueConsumerWorkers consumers) {
        this.doors = doors;
        this.properties = properties;
        this.consumers = consumers;
        properties.configs().forEach((id, config) -> {
            DbQueue door = doors.door(config.location());
            producers.put(id, door.producer(config.location(), config.wakeup()));
            depths.put(id, new Cached<>(new QueueMonitor(door.dataSource(), config.location())::depth));
            deadLetterCounts.put(id, new Cached<>(new DeadLetters(door.dataSource(), config.location())::count));
        });
    }

    /** The configured queue ids, in configuration order. */
    public Set<String> ids() {
        return producers.keySet();
    }

    public QueueLocation location(String id) {
        return producer(id).location();
    }

    /**
     * The producer of queue {@code id}; thread-safe, one per queue, reported to the queue listeners, and waking the
     * queue's listening consumers unless its wakeup is poll. Inside a Spring transaction on the queues' DataSource its
     * enqueues join it: the tasks exist if and only if it commits.
     */
    public QueueProducer producer(String id) {
        QueueProducer producer = producers.get(id);
        if (producer == null) {
            throw new UnknownQueueIdException("unknown queue id '" + id + "'; configured under dbq.queues: " + ids(),
                    id, ids());
        }
        return producer;
    }

    /**
     * The coalescing producer of queue {@code id} ({@code dbq.queues.<id>.coalesce.*}): single enqueues from many
     * threads merged into one statement per batch, each caller answered once its batch has committed. Its batches
     * commit on their own, never in a caller's transaction. Closed with the {@link DbQueue}.
     */
    public CoalescingProducer coalescingProducer(String id) {
        QueueLocation location = location(id);
        return coalescingProducers.computeIfAbsent(id,
                key -> doors.door(location).coalescingProducer(location, properties.queues().get(id).coalescing(id),
                        properties.queues().get(id).wakeup()));
    }

    public DeadLetters deadLetters(String id) {
        QueueLocation location = location(id);
        return new DeadLetters(doors.door(location).dataSource(), location);
    }

    /** An operator's hold on queue {@code id}: stats, pause and resume for every instance, cancel, reschedule. */
    public QueueAdmin admin(String id) {
        QueueLocation location = location(id);
        return doors.door(location).queueAdmin(location);
    }

    /** Reads the depth of queue {@code id} on each call. */
    public QueueMonitor monitor(String id) {
        QueueLocation location = location(id);
        return new QueueMonitor(doors.door(location).dataSource(), location);
    }

    /**
     * The depth of queue {@code id}, read at most once per {@link Cached#MAX_AGE} and waited for at most
     * {@link Cached#TIMEOUT}, as metrics and health use it.
     */
    public Depth depth(String id) {
        return of(depths, id).get();
    }

    /** The dead letters of queue {@code id} waiting in its dead-letter table, read as {@link #depth} is. */
    public long deadLetterCount(String id) {
        return of(deadLetterCounts, id).get();
    }

    /**
     * As {@link #depth}, without waiting ({@link Cached#getNow}), as the metrics' gauges read it: one without a value
     * at hand throws {@link Cached.ReadTimeoutException}, and a scrape does not wait a timeout for each.
     */
    public Depth depthNow(String id) {
        return of(depths, id).getNow();
    }

    /** As {@link #deadLetterCount}, without waiting, as {@link #depthNow}. */
    public long deadLetterCountNow(String id) {
        return of(deadLetterCounts, id).getNow();
    }

    private <T> Cached<T> of(Map<String, Cached<T>> byId, String id) {
        location(id); // rejects an unknown id
        return byId.get(id);
    }

    /**
     * The workers consuming queue {@code id} (a group's, when the queue is in a {@code dbq.groups} group) or group
     * {@code id}, present while a {@link QueueConsumer} bean consumes it.
     */
    public Optional<QueueWorkers> workers(String id) {
        if (!properties.groups().containsKey(id)) {
            location(id); // rejects an unknown id
        }
        return consumers.workers(id);
    }
}
