package io.dbqueue.spring;

import io.dbqueue.DbQueue;
import io.dbqueue.queue.QueueLocation;

/**
 * The {@link DbQueue} that holds each queue: the application's one door, or with {@code dbq.shards} the door of the
 * queue's shard ({@link DbQueueShards}). {@link DbQueues} and {@link QueueConsumerWorkers} produce, read and consume
 * each queue through it.
 */
@FunctionalInterface
public interface QueueDoors {

    /** The door of the database that holds {@code queue}. */
    DbQueue door(QueueLocation queue);
}
