package io.dbqueue.spring;

import io.dbqueue.queue.QueueProducer.Enqueued;
import io.dbqueue.queue.Uniqueness;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Sends messages to configured queues, as {@code KafkaTemplate} and {@code RabbitTemplate} do: each
 * message is written by the {@link PayloadSerializer} (a {@code String} as it is) and enqueued by the
 * queue's producer, so inside a Spring transaction on the queues' DataSource it is enqueued if and
 * only if that transaction commits.
 */
public final class DbQueueTemplate {

    private final DbQueues queues;
    private final PayloadSerializer serializer;

    public DbQueueTemplate(DbQueues queues, PayloadSerializer serializer) {
        this.queues = queues;
        this.serializer = serializer;
    }

    /** Enqueues one message into queue {@code queueId}; returns the task's id. */
    public long send(String queueId, Object message) {
        return queues.producer(queueId).enqueue(serializer.serialize(checked(message)));
    }

    /** Enqueues one message that becomes due after {@code delay}; returns the task's id. */
    public long send(String queueId, Object message, Duration delay) {
        return queues.producer(queueId).enqueue(serializer.serialize(checked(message)), delay);
    }

    /**
     * Enqueues one message with {@code headers}, e.g. the header a per-key limit reads
     * ({@code dbq.queues.<id>.per-key.header}); returns the task's id. The queue's enqueue interceptors add theirs.
     */
    public long send(String queueId, Object message, Map<String, String> headers) {
        return queues.producer(queueId).enqueue(serializer.serialize(checked(message)), headers);
    }

    /** As {@link #send(String, Object, Map)}, the task becoming due after {@code delay}. */
    public long send(String queueId, Object message, Duration delay, Map<String, String> headers) {
        return queues.producer(queueId).enqueueAll(List.of(serializer.serialize(checked(message))),
                Collections.singletonList(headers), delay).get(0);
    }

    /**
     * Enqueues one message of {@code priority} (from -32768 to 32767; messages sent without one have 0) into a
     * queue whose layout has priorities ({@code dbq_seq_priority}, {@code dbq_seq_priority_key}): a higher priority is
     * consumed first, messages of one priority in the order sent. Returns the task's id.
     */
    public long send(String queueId, Object message, int priority) {
        return send(queueId, message, Duration.ZERO, priority);
    }

    /** As {@link #send(String, Object, int)}, the task becoming due after {@code delay}. */
    public long send(String queueId, Object message, Duration delay, int priority) {
        return queues.producer(queueId).enqueueAll(List.of(serializer.serialize(checked(message))), delay, priority)
                .get(0);
    }

    /**
     * Enqueues one message, due now, unless {@code key} was enqueued into the queue before (within
     * {@code dbq.idempotency-key-retention}); the answer holds the first task's id and whether this call stored it.
     */
    public Enqueued sendOnce(String queueId, String key, Object message) {
        return sendOnce(queueId, key, message, Duration.ZERO);
    }

    /** As {@link #sendOnce(String, String, Object)}, the task becoming due after {@code delay}. */
    public Enqueued sendOnce(String queueId, String key, Object message, Duration delay) {
        return sendOnce(queueId, key, message, delay, (String) null);
    }

    /**
     * As {@link #sendOnce(String, String, Object, Duration)}, the key stored with {@code fingerprint}, a hash
     * of the request it stands for: the key sent again with another fingerprint stores nothing and throws
     * {@link io.dbqueue.queue.IdempotencyKeyReusedException}. Null: no fingerprint.
     */
    public Enqueued sendOnce(String queueId, String key, Object message, Duration delay, String fingerprint) {
        // Not List.of: a null key must reach the producer's check, which names it, and null is no fingerprint.
        return queues.producer(queueId).enqueueAllOnce(Collections.singletonList(key),
                Collections.singletonList(fingerprint), List.of(serializer.serialize(checked(message))), delay).get(0);
    }

    /**
     * As {@link #sendOnce(String, String, Object, Duration)}, the key keeping its task unique as
     * {@code uniqueness} says: {@link Uniqueness#WHILE_WAITING}, {@link Uniqueness#WHILE_WAITING_OR_RUNNING},
     * or {@link Uniqueness#DEBOUNCE} (a repeat replaces the waiting task's message and due time).
     */
    public Enqueued sendOnce(String queueId, String key, Object message, Duration delay, Uniqueness uniqueness) {
        return queues.producer(queueId).enqueueOnce(key, serializer.serialize(checked(message)), delay, uniqueness);
    }

    /** Enqueues messages in one statement; returns their ids in order. Nothing is stored if one cannot be written. */
    public List<Long> sendAll(String queueId, List<?> messages) {
        return queues.producer(queueId).enqueueAll(serialized(messages));
    }

    /** As {@link #sendAll(String, List)}, every message of {@code priority}; see {@link #send(String, Object, int)}. */
    public List<Long> sendAll(String queueId, List<?> messages, int priority) {
        return queues.producer(queueId).enqueueAll(serialized(messages), Duration.ZERO, priority);
    }

    private List<String> serialized(List<?> messages) {
        if (messages == null || messages.isEmpty()) {
            throw new IllegalArgumentException("messages must not be null or empty");
        }
        return messages.stream().map(m -> serializer.serialize(checked(m))).toList();
    }

    private static Object checked(Object message) {
        if (message == null) {
            throw new IllegalArgumentException("a message must not be null");
        }
        return message;
    }
}
