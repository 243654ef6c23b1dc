package io.dbqueue.spring;

import io.dbqueue.queue.BatchHandler;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.TaskBatch;

/**
 * A bean that consumes one configured queue. The starter starts the queue's workers (per
 * {@code dbq.queues.<queueId>.*}) with this bean as their handler, and stops them gracefully when
 * the application stops. Tasks the handler does not answer finish when it returns; if it throws,
 * they fail and are retried per the queue's retry policy.
 */
public interface QueueConsumer extends BatchHandler {

    /** The id of the queue under {@code dbq.queues} that this bean consumes. */
    String queueId();

    @Override
    void handle(TaskBatch batch) throws Exception;

    /** The configuration its workers run with, given the queue's {@code dbq.queues.<id>.*}; that one unless overridden. */
    default QueueConfig configure(QueueConfig configured) {
        return configured;
    }
}
