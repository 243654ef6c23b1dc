package io.dbqueue.spring;

import io.dbqueue.queue.QueueProducer.Enqueued;

import java.time.Duration;
import java.util.Collections;
import java.util.List;

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
     * Enqueues one message, due now, unless {@code key} was enqueued into the queue before (within
     * {@code dbq.idempotency-key-retention}); the answer holds the first task's id and whether this call stored it.
     */
    public Enqueued sendOnce(String queueId, String key, Object message) {
        return sendOnce(queueId, key, message, Duration.ZERO);
    }

    /** As {@link #sendOnce(String, String, Object)}, the task becoming due after {@code delay}. */
    public Enqueued sendOnce(String queueId, String key, Object message, Duration delay) {
        // Not List.of: a null key must reach the producer's check, which names it.
        return queues.producer(queueId).enqueueAllOnce(Collections.singletonList(key),
                List.of(serializer.serialize(checked(message))), delay).get(0);
    }

    /** Enqueues messages in one statement; returns their ids in order. Nothing is stored if one cannot be written. */
    public List<Long> sendAll(String queueId, List<?> messages) {
        if (messages == null || messages.isEmpty()) {
            throw new IllegalArgumentException("messages must not be null or empty");
        }
        return queues.producer(queueId).enqueueAll(messages.stream().map(m -> serializer.serialize(checked(m))).toList());
    }

    private static Object checked(Object message) {
        if (message == null) {
            throw new IllegalArgumentException("a message must not be null");
        }
        return message;
    }
}
