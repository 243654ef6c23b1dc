package io.dbqueue.spring;

import io.dbqueue.DbQueue;
import io.dbqueue.queue.CoalescingProducer;
import io.dbqueue.queue.DeadLetters;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueMonitor;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueWorkers;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The application's queues by id ({@code dbq.queues.<id>}): producers to enqueue with, dead letters, depth monitors
 * and the running workers, from the {@link DbQueue}. An unknown id throws {@link IllegalArgumentException} naming it.
 */
public class DbQueues {

    private final DbQueue door;
    private final QueueDefinitions definitions;
    private final QueueConsumerWorkers consumers;
    private final Map<String, QueueProducer> producers = new LinkedHashMap<>();
    private final Map<String, CoalescingProducer> coalescingProducers = new ConcurrentHashMap<>();

    /** Makes every queue's producer, so that the door purges the idempotency keys of every configured table. */
    public DbQueues(DbQueue door, QueueDefinitions definitions, QueueConsumerWorkers consumers) {
        this.door = door;
        this.definitions = definitions;
        this.consumers = consumers;
        definitions.all().forEach(d -> producers.put(d.id(), door.producer(d.location())));
    }

    /** The configured queue ids, in configuration order. */
    public Set<String> ids() {
        return definitions.ids();
    }

    public QueueLocation location(String id) {
        return definitions.get(id).location();
    }

    /**
     * The producer of queue {@code id}; thread-safe, one per queue, reported to the queue listeners, and waking the
     * queue's listening consumers. Inside a Spring transaction on the queues' DataSource its enqueues join it: the
     * tasks exist if and only if it commits.
     */
    public QueueProducer producer(String id) {
        definitions.get(id); // rejects an unknown id
        return producers.get(id);
    }

    /**
     * The coalescing producer of queue {@code id} ({@code dbq.queues.<id>.coalesce.*}): single enqueues from many
     * threads merged into one statement per batch, each caller answered once its batch has committed. Its batches
     * commit on their own, never in a caller's transaction. Closed with the {@link DbQueue}.
     */
    public CoalescingProducer coalescingProducer(String id) {
        QueueDefinition definition = definitions.get(id);
        return coalescingProducers.computeIfAbsent(id,
                key -> door.coalescingProducer(definition.location(), definition.coalescing()));
    }

    public DeadLetters deadLetters(String id) {
        return new DeadLetters(door.dataSource(), location(id));
    }

    /** Reads the depth of queue {@code id} on each call; the metrics and health indicator cache it. */
    public QueueMonitor monitor(String id) {
        return new QueueMonitor(door.dataSource(), location(id));
    }

    /**
     * The workers consuming queue {@code id} (a group's, when the queue is in a {@code dbq.groups} group) or group
     * {@code id}, present while a {@link QueueConsumer} bean consumes it.
     */
    public Optional<QueueWorkers> workers(String id) {
        if (!definitions.groups().containsKey(id)) {
            definitions.get(id); // rejects an unknown id
        }
        return consumers.workers(id);
    }
}
