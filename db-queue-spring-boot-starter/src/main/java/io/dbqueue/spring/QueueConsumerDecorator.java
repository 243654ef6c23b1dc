package io.dbqueue.spring;

import io.dbqueue.queue.BatchHandler;
import io.dbqueue.queue.QueueConfig;

/**
 * Wraps the handler of every {@link QueueConsumer} the starter runs, e.g. to observe each task it handles
 * ({@code dbq.observation-enabled}). Beans of this type apply in their order, the first outermost.
 */
@FunctionalInterface
public interface QueueConsumerDecorator {

    /** The handler the workers of {@code config}'s queue (or group) run instead of {@code handler}. */
    BatchHandler decorate(QueueConfig config, BatchHandler handler);
}
