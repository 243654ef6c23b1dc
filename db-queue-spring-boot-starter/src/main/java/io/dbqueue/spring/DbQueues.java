package io.dbqueue.spring;

import io.dbqueue.common.Transactions;
import io.dbqueue.queue.CoalescingProducer;
import io.dbqueue.queue.DeadLetters;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueMonitor;
import io.dbqueue.queue.QueueNotifier;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueWorkers;
import javax.sql.DataSource;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The application's queues by id ({@code dbq.queues.<id>}): producers to enqueue with, dead letters,
 * depth monitors and the running workers. An unknown id throws {@link IllegalArgumentException} naming it.
 */
public class DbQueues implements AutoCloseable {

    private final DataSource dataSource;
    private final QueueDefinitions definitions;
    private final QueueListener listener;
    private final QueueConsumerWorkers consumers;
    private final QueueNotifier notifier;
    private final Transactions transactions;
    private final Map<String, QueueProducer> producers = new ConcurrentHashMap<>();
    private final Map<String, CoalescingProducer> coalescingProducers = new ConcurrentHashMap<>();

    /** {@code notifier} sends the wakeups of queues configured with {@code wakeup=notify} or {@code adaptive}. */
    public DbQueues(DataSource dataSource, QueueDefinitions definitions, QueueListener listener,
                    QueueConsumerWorkers consumers, QueueNotifier notifier, Transactions transactions) {
        this.dataSource = dataSource;
        this.definitions = definitions;
        this.listener = listener;
        this.consumers = consumers;
        this.notifier = notifier;
        this.transactions = transactions;
    }

    /** The configured queue ids, in configuration order. */
    public Set<String> ids() {
        return definitions.ids();
    }

    public QueueLocation location(String id) {
        return definitions.get(id).location();
    }

    /**
     * A producer for queue {@code id}; thread-safe, one per queue, reported to the queue listeners,
     * and sending wakeups when the queue is configured with {@code wakeup=notify} or {@code adaptive}. Inside a Spring
     * transaction on the queues' DataSource its enqueues join it: the tasks exist if and only if it commits.
     */
    public QueueProducer producer(String id) {
        QueueDefinition definition = definitions.get(id);
        return producers.computeIfAbsent(id, key -> new QueueProducer(dataSource, definition.location(), listener,
                transactions, notifierOf(definition)));
    }

    private QueueNotifier notifierOf(QueueDefinition definition) {
        return definition.notifyWakeups() ? notifier : null;
    }

    /**
     * The coalescing producer of queue {@code id} ({@code dbq.queues.<id>.coalesce.*}): single enqueues
     * from many threads merged into one statement per batch, each caller answered once its batch has
     * committed. Its batches commit on their own, never in a caller's transaction. Closed with the context.
     */
    public CoalescingProducer coalescingProducer(String id) {
        QueueDefinition definition = definitions.get(id);
        return coalescingProducers.computeIfAbsent(id, key -> new CoalescingProducer(new QueueProducer(dataSource,
                definition.location(), listener, Transactions.JDBC, notifierOf(definition)), definition.coalescing()));
    }

    public DeadLetters deadLetters(String id) {
        return new DeadLetters(dataSource, location(id));
    }

    /** Reads the depth of queue {@code id} on each call; the metrics and health indicator cache it. */
    public QueueMonitor monitor(String id) {
        return new QueueMonitor(dataSource, location(id));
    }

    /** Writes what the coalescing producers hold and stops them. */
    @Override
    public void close() {
        coalescingProducers.values().forEach(CoalescingProducer::close);
    }

    /**
     * The workers consuming queue {@code id} (a group's, when the queue is in a {@code dbq.groups}
     * group) or group {@code id}, present while a {@link QueueConsumer} bean consumes it.
     */
    public Optional<QueueWorkers> workers(String id) {
        if (!definitions.groups().containsKey(id)) {
            definitions.get(id); // rejects an unknown id
        }
        return consumers.workers(id);
    }
}
