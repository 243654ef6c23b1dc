package io.dbqueue.spring;

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
